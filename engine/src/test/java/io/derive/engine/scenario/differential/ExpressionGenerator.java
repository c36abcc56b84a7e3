package io.derive.engine.scenario.differential;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Random typed scalar expressions and predicates over the columns in scope. Everything it makes
 * is valid SQLite; the Derby rendering is dropped (null) for what Derby does differently:
 * division and remainder (Derby fails on a zero divisor), {@code like} (case-sensitive in Derby)
 * and untyped NULL literals (rendered as casts).
 */
final class ExpressionGenerator {

    /** A column visible in a query: {@code alias.name} of a type. */
    record Column(String alias, String name, ColumnType type) {
        Sql sql() {
            return Sql.both(alias + "." + name);
        }
    }

    record Typed(Sql sql, ColumnType type, boolean computed) {
    }

    private final Random random;

    ExpressionGenerator(Random random) {
        this.random = random;
    }

    Column pick(List<Column> scope) {
        return scope.get(random.nextInt(scope.size()));
    }

    Column pick(List<Column> scope, ColumnType type) {
        List<Column> matching = new ArrayList<>();
        for (Column c : scope) {
            if (c.type() == type) {
                matching.add(c);
            }
        }
        return matching.isEmpty() ? null : matching.get(random.nextInt(matching.size()));
    }

    Column pickComparable(List<Column> scope, ColumnType type) {
        List<Column> matching = new ArrayList<>();
        for (Column c : scope) {
            if (c.type().comparableWith(type)) {
                matching.add(c);
            }
        }
        return matching.isEmpty() ? null : matching.get(random.nextInt(matching.size()));
    }

    Sql literal(ColumnType type) {
        if (random.nextInt(12) == 0) {
            return new Sql("null", "cast(null as " + type.ddl(true) + ")");
        }
        Object v = RandomDatabase.value(type, random);
        if (v instanceof String s) {
            // Derby types a literal as CHAR and pads it when mixed with others; SQLite never pads.
            return new Sql("'" + s + "'", "cast('" + s + "' as varchar(20))");
        }
        String text = String.valueOf(v);
        return Sql.both(text.startsWith("-") ? "(" + text + ")" : text);
    }

    /** An expression of roughly the given type: a column, a literal or a computation. */
    Typed expr(List<Column> scope, ColumnType type, int depth) {
        int choice = depth <= 0 ? random.nextInt(2) : random.nextInt(9);
        if (choice == 0) {
            Column c = pick(scope, type);
            if (c != null) {
                return new Typed(c.sql(), type, false);
            }
        }
        if (choice <= 1) {
            return new Typed(literal(type), type, true);
        }
        if (type == ColumnType.TEXT) {
            return textExpr(scope, depth);
        }
        return numericExpr(scope, type, depth);
    }

    private Typed textExpr(List<Column> scope, int depth) {
        switch (random.nextInt(5)) {
            case 0:
                return computed(Sql.concat(expr(scope, ColumnType.TEXT, depth - 1).sql(), " || ",
                        expr(scope, ColumnType.TEXT, depth - 1).sql()), ColumnType.TEXT);
            case 1:
                return computed(Sql.concat(random.nextBoolean() ? "upper(" : "lower(",
                        expr(scope, ColumnType.TEXT, depth - 1).sql(), ")"), ColumnType.TEXT);
            case 2:
                return computed(Sql.concat("coalesce(", expr(scope, ColumnType.TEXT, depth - 1).sql(), ", ",
                        expr(scope, ColumnType.TEXT, depth - 1).sql(), ")"), ColumnType.TEXT);
            case 3:
                return computed(caseExpr(scope, ColumnType.TEXT, depth), ColumnType.TEXT);
            default:
                Column c = pick(scope, ColumnType.TEXT);
                return c == null ? new Typed(literal(ColumnType.TEXT), ColumnType.TEXT, true)
                        : new Typed(c.sql(), ColumnType.TEXT, false);
        }
    }

    private Typed numericExpr(List<Column> scope, ColumnType type, int depth) {
        ColumnType operand = type == ColumnType.REAL && random.nextBoolean() ? ColumnType.INT : type;
        switch (random.nextInt(8)) {
            case 0, 1: {
                String op = new String[] {" + ", " - ", " * "}[random.nextInt(3)];
                return computed(Sql.concat("(", expr(scope, type, depth - 1).sql(), op,
                        expr(scope, operand, depth - 1).sql(), ")"), type);
            }
            case 2: {
                // SQLite: integer division truncates and a zero divisor gives NULL; Derby fails on it.
                String op = random.nextBoolean() ? " / " : " % ";
                Sql s = Sql.concat("(", expr(scope, type, depth - 1).sql(), op, expr(scope, operand, depth - 1).sql(), ")");
                return computed(Sql.sqliteOnly(s.sqlite()), type);
            }
            case 3:
                return computed(Sql.concat("abs(", expr(scope, type, depth - 1).sql(), ")"), type);
            case 4:
                return computed(Sql.concat("coalesce(", expr(scope, type, depth - 1).sql(), ", ",
                        expr(scope, type, depth - 1).sql(), ")"), type);
            case 5:
                return computed(caseExpr(scope, type, depth), type);
            case 6:
                if (type == ColumnType.INT) {
                    return computed(Sql.concat("length(", expr(scope, ColumnType.TEXT, depth - 1).sql(), ")"), type);
                }
                return computed(Sql.concat("(", expr(scope, ColumnType.INT, depth - 1).sql(), " * 0.5)"), type);
            default:
                return computed(Sql.concat("-(", expr(scope, type, depth - 1).sql(), ")"), type);
        }
    }

    private Sql caseExpr(List<Column> scope, ColumnType type, int depth) {
        return Sql.concat("case when ", predicate(scope, depth - 1), " then ", expr(scope, type, depth - 1).sql(),
                " else ", expr(scope, type, depth - 1).sql(), " end");
    }

    private static Typed computed(Sql sql, ColumnType type) {
        return new Typed(sql, type, true);
    }

    /** A boolean condition: comparisons, null tests, between, in, like, and/or/not. */
    Sql predicate(List<Column> scope, int depth) {
        int choice = depth <= 0 ? random.nextInt(6) : random.nextInt(9);
        ColumnType type = ColumnType.values()[random.nextInt(3)];
        Column c = pick(scope);
        switch (choice) {
            case 0, 1, 2: {
                String op = new String[] {" = ", " <> ", " < ", " <= ", " > ", " >= "}[random.nextInt(6)];
                Typed left = random.nextInt(3) == 0 ? expr(scope, c.type(), depth) : new Typed(c.sql(), c.type(), false);
                Column other = random.nextBoolean() ? pickComparable(scope, c.type()) : null;
                Sql right = other != null ? other.sql() : expr(scope, c.type(), depth - 1).sql();
                return Sql.concat(left.sql(), op, right);
            }
            case 3:
                return Sql.concat(c.sql(), random.nextBoolean() ? " is null" : " is not null");
            case 4:
                return Sql.concat(c.sql(), random.nextBoolean() ? " between " : " not between ",
                        literal(c.type()), " and ", literal(c.type()));
            case 5: {
                List<Object> parts = new ArrayList<>();
                parts.add(c.sql());
                parts.add(random.nextBoolean() ? " in (" : " not in (");
                int n = 1 + random.nextInt(3);
                for (int i = 0; i < n; i++) {
                    parts.add(i == 0 ? "" : ", ");
                    parts.add(literal(c.type()));
                }
                parts.add(")");
                return Sql.concat(parts.toArray());
            }
            case 6: {
                Column text = pick(scope, ColumnType.TEXT);
                if (text != null && random.nextBoolean()) {
                    String pattern = new String[] {"a%", "%b", "_", "%", "A%", "%a%"}[random.nextInt(6)];
                    return Sql.sqliteOnly(text.sql().sqlite() + " like '" + pattern + "'");
                }
                return Sql.concat("not (", predicate(scope, depth - 1), ")");
            }
            default:
                return Sql.concat("(", predicate(scope, depth - 1), random.nextBoolean() ? " and " : " or ",
                        predicate(scope, depth - 1), ")");
        }
    }
}
