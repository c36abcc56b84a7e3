package io.derive.batch.verify;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * One chunk of {@code mv-verify}: the view's keys after {@code after} (exclusive) up to
 * {@code through} (inclusive), in the key's own order; null ends are open. Keys compare
 * lexicographically column by column, as the view's key orders them.
 *
 * @param after   the previous chunk's last key; null for the first chunk
 * @param through this chunk's last key; null for the last chunk
 * @param keys    how many keys the view held in the range when the range was chosen
 */
record KeyRange(List<Object> after, List<Object> through, long keys) implements Serializable {

    /**
     * The predicate over {@code columns} (the view's key, in key order) that selects this range,
     * with its parameters in order; null when the range is every key. The first column is also
     * bounded on its own, so the engine reaches the range by a key seek rather than a scan.
     */
    Predicate predicate(List<String> columns) {
        List<String> conjuncts = new ArrayList<>();
        List<Object> parameters = new ArrayList<>();
        if (after != null) {
            conjuncts.add(bound(columns, after, ">", parameters));
        }
        if (through != null) {
            conjuncts.add(bound(columns, through, "<=", parameters));
        }
        return conjuncts.isEmpty() ? null : new Predicate(String.join(" and ", conjuncts), parameters);
    }

    /** A predicate's SQL text and the values of its {@code ?} parameters, in order. */
    record Predicate(String sql, List<Object> parameters) {
    }

    /**
     * {@code key > bound} (or {@code <=}) for a composite key: {@code (a, b) > (x, y)} is
     * {@code a >= x and (a > x or (a = x and b > y))}.
     */
    private static String bound(List<String> columns, List<Object> values, String operator, List<Object> parameters) {
        String strict = operator.equals(">") ? ">" : "<";
        if (columns.size() == 1) {
            parameters.add(values.get(0));
            return quoted(columns.get(0)) + " " + operator + " ?";
        }
        parameters.add(values.get(0));
        return quoted(columns.get(0)) + " " + strict + "= ? and " + lexicographic(columns, values, 0, strict, operator, parameters);
    }

    private static String lexicographic(List<String> columns, List<Object> values, int i, String strict, String last,
                                        List<Object> parameters) {
        String column = quoted(columns.get(i));
        parameters.add(values.get(i));
        if (i == columns.size() - 1) {
            return column + " " + last + " ?";
        }
        parameters.add(values.get(i));
        return "(" + column + " " + strict + " ? or (" + column + " = ? and "
                + lexicographic(columns, values, i + 1, strict, last, parameters) + "))";
    }

    static String quoted(String identifier) {
        return "\"" + identifier.replace("\"", "\"\"") + "\"";
    }
}
