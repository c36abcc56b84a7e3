package io.derive.engine.scenario;

/**
 * Builds the oversized and deeply nested statements of the bad-input corpus, each of size
 * {@code n}, against the fixture of {@code bad-input/setup.sql} (tables {@code t(k, v, n, r)} and
 * {@code u}). Each is invalid however the engine copes with its size: it names an unknown column
 * {@code nope}, breaks a constraint, or is malformed.
 */
final class BadInputGenerator {
    private BadInputGenerator() {
    }

    static String generate(String name, int n) {
        switch (name) {
            case "unterminated-string":
                return "select '" + "x".repeat(n);
            case "unterminated-comment":
                return "select 1 /* " + "x".repeat(n);
            case "string-into-integer":
                return "insert into t values (99, 'x', '" + "x".repeat(n) + "', 0.0)";
            case "long-unknown-table":
                return "select * from " + "x".repeat(n);
            case "long-unknown-column":
                return "select " + "x".repeat(n) + " from t";
            case "select-list-then-unknown":
                return "select " + "k, ".repeat(n) + "nope from t";
            case "insert-too-many-values":
                return "insert into t values (" + "1, ".repeat(n - 1) + "1)";
            case "in-list-unknown-column":
                return "select k from t where nope in (" + "1, ".repeat(n - 1) + "1)";
            case "wide-create-duplicate": {
                StringBuilder b = new StringBuilder("create table wide (c0 integer primary key");
                for (int i = 1; i < n; i++) {
                    b.append(", c").append(i).append(" integer");
                }
                return b.append(", c1 text)").toString();
            }
            case "many-rows-one-duplicate": {
                StringBuilder b = new StringBuilder("insert into t values ");
                for (int i = 0; i < n; i++) {
                    b.append(i == 0 ? "" : ", ").append('(').append(100 + i).append(", 'x', 1, 1.0)");
                }
                return b.append(", (100, 'dup', 1, 1.0)").toString();
            }
            case "nested-parens":
                return "select " + "(".repeat(n) + "nope" + ")".repeat(n) + " from t";
            case "unbalanced-parens":
                return "select " + "(".repeat(n) + "1" + ")".repeat(n - 1);
            case "nested-not":
                return "select " + "not ".repeat(n) + "nope from t";
            case "nested-minus":
                return "select " + "- ".repeat(n) + "nope from t";
            case "plus-chain":
                return "select " + "1 + ".repeat(n) + "nope from t";
            case "and-chain":
                return "select " + "1 and ".repeat(n) + "nope from t";
            case "concat-chain":
                return "select " + "'a' || ".repeat(n) + "nope from t";
            case "nested-case":
                return "select " + "case when 1 then ".repeat(n) + "nope" + " end".repeat(n) + " from t";
            case "nested-subquery":
                return "select " + "(select ".repeat(n) + "nope" + ")".repeat(n) + " from t";
            default:
                throw new IllegalArgumentException("no generator named '" + name + "'");
        }
    }
}
