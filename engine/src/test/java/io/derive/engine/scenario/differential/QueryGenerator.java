package io.derive.engine.scenario.differential;

import io.derive.engine.scenario.differential.ExpressionGenerator.Column;
import io.derive.engine.scenario.differential.ExpressionGenerator.Typed;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * Random queries over a {@link RandomDatabase}, each tagged with the {@link Feature}s it uses.
 * A query either has a total order (every output column in {@code order by}, so ties are equal
 * rows and even {@code limit} is deterministic) or is compared as a bag.
 */
public final class QueryGenerator {
    private final RandomDatabase database;
    private final Random random;
    private final ExpressionGenerator expressions;
    private final Set<Feature> features = EnumSet.noneOf(Feature.class);

    private QueryGenerator(RandomDatabase database, long seed) {
        this.database = database;
        this.random = new Random(seed);
        this.expressions = new ExpressionGenerator(random);
    }

    /** The query for one replay handle: the same database and index always give the same query. */
    public static GeneratedQuery generate(RandomDatabase database, long databaseSeed, int index) {
        QueryGenerator generator = new QueryGenerator(database, databaseSeed * 1_000_003L + index);
        return generator.query(databaseSeed + ":" + index);
    }

    private GeneratedQuery query(String id) {
        int shape = random.nextInt(100);
        Shape result;
        if (shape < 40) {
            result = singleTable();
        } else if (shape < 55) {
            result = join();
        } else if (shape < 67) {
            result = subquery();
        } else if (shape < 80) {
            result = grouped();
        } else if (shape < 92) {
            result = setOperation();
        } else {
            result = random.nextBoolean() ? derived() : pushdown();
        }
        boolean ordered = result.orderable && random.nextInt(3) > 0;
        Sql sql = result.sql;
        if (ordered) {
            features.add(Feature.ORDER_LIMIT);
            if (features.contains(Feature.DISTINCT) || features.contains(Feature.SET_OPERATION)) {
                // Derby 10.16 ignores NULLS FIRST/LAST after SELECT DISTINCT or a set operation (it
                // reuses the duplicate-eliminating sort).
                sql = Sql.sqliteOnly(sql.sqlite());
            }
            sql = Sql.concat(sql, orderBy(result.width));
            if (random.nextBoolean()) {
                sql = Sql.concat(sql, limit());
            }
        }
        return new GeneratedQuery(id, sql, features, ordered);
    }

    private record Shape(Sql sql, int width, boolean orderable) {
    }

    private List<Column> scope(RandomDatabase.Table table, String alias) {
        List<Column> columns = new ArrayList<>();
        columns.add(new Column(alias, "id", ColumnType.INT));
        for (int i = 0; i < table.columns().size(); i++) {
            columns.add(new Column(alias, table.column(i), table.columns().get(i)));
        }
        return columns;
    }

    private RandomDatabase.Table table() {
        List<RandomDatabase.Table> tables = database.tables();
        return tables.get(random.nextInt(tables.size()));
    }

    /** 1–3 output expressions: mostly columns, sometimes computed. */
    private List<Sql> selectList(List<Column> scope, int max) {
        int n = 1 + random.nextInt(max);
        List<Sql> items = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (random.nextInt(3) == 0) {
                ColumnType type = ColumnType.values()[random.nextInt(3)];
                Typed e = expressions.expr(scope, type, 2);
                if (e.computed()) {
                    features.add(Feature.EXPRESSIONS);
                }
                items.add(e.sql());
            } else {
                items.add(expressions.pick(scope).sql());
            }
        }
        return items;
    }

    private static Sql commaList(List<Sql> items) {
        List<Object> parts = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            parts.add(i == 0 ? "" : ", ");
            parts.add(items.get(i));
        }
        return Sql.concat(parts.toArray());
    }

    private Sql where(List<Column> scope, int chancePercent) {
        if (random.nextInt(100) >= chancePercent) {
            return Sql.both("");
        }
        features.add(Feature.FILTER);
        return Sql.concat(" where ", expressions.predicate(scope, 2));
    }

    private Shape singleTable() {
        features.add(Feature.SINGLE_TABLE);
        RandomDatabase.Table t = table();
        List<Column> scope = scope(t, "a");
        boolean distinct = random.nextInt(4) == 0;
        if (distinct) {
            features.add(Feature.DISTINCT);
        }
        List<Sql> items = selectList(scope, 3);
        Sql sql = Sql.concat("select ", distinct ? "distinct " : "", commaList(items), " from ", t.name(), " a",
                where(scope, 70));
        return new Shape(sql, items.size(), true);
    }

    private Shape join() {
        int ways = random.nextInt(3) == 0 ? 3 : 2;
        List<Column> scope = new ArrayList<>();
        RandomDatabase.Table first = table();
        scope.addAll(scope(first, "a"));
        Sql from = Sql.both(first.name() + " a");
        boolean outer = false;
        for (int i = 1; i < ways; i++) {
            String alias = String.valueOf((char) ('a' + i));
            RandomDatabase.Table next = table();
            List<Column> nextScope = scope(next, alias);
            Column right = expressions.pick(nextScope);
            Column left = expressions.pickComparable(scope, right.type());
            int kind = random.nextInt(10);
            Sql join;
            if (kind < 5) {
                join = Sql.both(" join ");
            } else if (kind < 7) {
                join = Sql.both(" left join ");
                outer = true;
            } else if (kind < 9) {
                join = Sql.both(" right join ");
                outer = true;
            } else {
                // Derby has no full outer join.
                join = Sql.sqliteOnly(" full join ");
                outer = true;
            }
            Sql on = Sql.concat(left.sql(), " = ", right.sql());
            if (random.nextInt(4) == 0) {
                on = Sql.concat(on, " and ", expressions.predicate(nextScope, 1));
            }
            from = Sql.concat(from, join, next.name(), " ", alias, " on ", on);
            scope.addAll(nextScope);
        }
        features.add(ways == 3 ? Feature.INNER_JOIN_3 : Feature.INNER_JOIN_2);
        if (outer) {
            features.add(Feature.OUTER_JOIN);
        }
        List<Sql> items = selectList(scope, 3);
        Sql sql = Sql.concat("select ", commaList(items), " from ", from, where(scope, 50));
        return new Shape(sql, items.size(), true);
    }

    private Shape subquery() {
        RandomDatabase.Table outer = table();
        RandomDatabase.Table inner = table();
        List<Column> outerScope = scope(outer, "a");
        List<Column> innerScope = scope(inner, "b");
        Column innerColumn = expressions.pick(innerScope);
        Column outerColumn = expressions.pickComparable(outerScope, innerColumn.type());
        boolean correlated = random.nextInt(3) > 0;
        features.add(correlated ? Feature.CORRELATED_SUBQUERY : Feature.SUBQUERY);
        Sql innerWhere = correlated
                ? Sql.concat(" where ", innerColumn.sql(), " = ", outerColumn.sql())
                : Sql.concat(" where ", expressions.predicate(innerScope, 1));
        List<Sql> items = selectList(outerScope, 2);
        Sql condition;
        switch (random.nextInt(3)) {
            case 0:
                condition = Sql.concat(random.nextBoolean() ? "exists" : "not exists", " (select 1 from ", inner.name(),
                        " b", innerWhere, ")");
                break;
            case 1: {
                Column selected = expressions.pick(innerScope);
                Column probe = expressions.pickComparable(outerScope, selected.type());
                condition = Sql.concat(probe.sql(), random.nextBoolean() ? " in" : " not in", " (select ",
                        selected.sql(), " from ", inner.name(), " b", innerWhere, ")");
                break;
            }
            default: {
                // An aggregate keeps a scalar subquery to one row (Derby rejects more, SQLite takes the first).
                Column measured = expressions.pick(innerScope);
                Sql scalar = Sql.concat("(select ", random.nextBoolean() ? "max(" : "min(", measured.sql(), ") from ",
                        inner.name(), " b", innerWhere, ")");
                items.add(scalar);
                condition = null;
            }
        }
        Sql sql = Sql.concat("select ", commaList(items), " from ", outer.name(), " a");
        if (condition != null) {
            sql = Sql.concat(sql, " where ", condition);
        }
        return new Shape(sql, items.size(), true);
    }

    private Shape grouped() {
        RandomDatabase.Table t = table();
        List<Column> scope = scope(t, "a");
        List<Sql> items = new ArrayList<>();
        List<Sql> keys = new ArrayList<>();
        boolean grouped = random.nextInt(4) > 0;
        if (grouped) {
            features.add(Feature.GROUP_BY);
            int n = 1 + random.nextInt(2);
            for (int i = 0; i < n; i++) {
                keys.add(expressions.pick(scope).sql());
            }
            items.addAll(keys);
        } else {
            features.add(Feature.AGGREGATE);
        }
        int aggregates = 1 + random.nextInt(3);
        for (int i = 0; i < aggregates; i++) {
            items.add(aggregate(scope));
        }
        Sql sql = Sql.concat("select ", commaList(items), " from ", t.name(), " a", where(scope, 40));
        if (grouped) {
            sql = Sql.concat(sql, " group by ", commaList(keys));
            if (random.nextInt(3) == 0) {
                sql = Sql.concat(sql, " having count(*) ", random.nextBoolean() ? "> 1" : "<= 2");
            }
        }
        return new Shape(sql, items.size(), true);
    }

    private Sql aggregate(List<Column> scope) {
        Column c = expressions.pick(scope);
        switch (random.nextInt(6)) {
            case 0:
                return Sql.both("count(*)");
            case 1:
                return Sql.concat("count(", c.sql(), ")");
            case 2:
                return Sql.concat("min(", c.sql(), ")");
            case 3:
                return Sql.concat("max(", c.sql(), ")");
            case 4: {
                Column n = expressions.pick(scope, ColumnType.INT);
                return Sql.concat("sum(", n.sql(), ")");
            }
            default: {
                // Derby's avg of integers truncates; over a real column both agree.
                Column r = expressions.pick(scope, ColumnType.REAL);
                return r != null ? Sql.concat("avg(", r.sql(), ")")
                        : Sql.sqliteOnly("avg(" + expressions.pick(scope, ColumnType.INT).sql().sqlite() + ")");
            }
        }
    }

    private Shape setOperation() {
        features.add(Feature.SET_OPERATION);
        RandomDatabase.Table left = table();
        RandomDatabase.Table right = table();
        List<Column> leftScope = scope(left, "a");
        List<Column> rightScope = scope(right, "a");
        int width = 1 + random.nextInt(2);
        List<Sql> leftItems = new ArrayList<>();
        List<Sql> rightItems = new ArrayList<>();
        for (int i = 0; i < width; i++) {
            Column l = expressions.pick(leftScope);
            Column r = expressions.pick(rightScope, l.type());
            leftItems.add(l.sql());
            rightItems.add(r != null ? r.sql() : expressions.literal(l.type()));
        }
        String op = new String[] {" union ", " union all ", " intersect ", " except "}[random.nextInt(4)];
        Sql sql = Sql.concat("select ", commaList(leftItems), " from ", left.name(), " a", where(leftScope, 50), op,
                "select ", commaList(rightItems), " from ", right.name(), " a", where(rightScope, 50));
        return new Shape(sql, width, true);
    }

    /**
     * A filtered projection read through a derived table or (SQLite dialect only: Derby has no
     * {@code with}) a common table expression, filtered again outside.
     */
    private Shape derived() {
        RandomDatabase.Table t = table();
        List<Column> scope = scope(t, "a");
        int width = 1 + random.nextInt(3);
        List<Object> inner = new ArrayList<>();
        List<Column> outputs = new ArrayList<>();
        inner.add("select ");
        for (int i = 1; i <= width; i++) {
            ColumnType type = ColumnType.values()[random.nextInt(3)];
            Typed e = random.nextInt(3) == 0 ? expressions.expr(scope, type, 1) : null;
            if (e == null) {
                Column c = expressions.pick(scope);
                e = new Typed(c.sql(), c.type(), false);
            } else if (e.computed()) {
                features.add(Feature.EXPRESSIONS);
            }
            inner.add(i == 1 ? "" : ", ");
            inner.add(e.sql());
            inner.add(" as o" + i);
            outputs.add(new Column("x", "o" + i, e.type()));
        }
        inner.add(" from " + t.name() + " a");
        inner.add(where(scope, 50));
        Sql body = Sql.concat(inner.toArray());
        Sql outerWhere = random.nextBoolean() ? Sql.both("") : Sql.concat(" where ", expressions.predicate(outputs, 1));
        List<Sql> items = new ArrayList<>();
        for (Column c : outputs) {
            items.add(c.sql());
        }
        Sql sql;
        if (random.nextBoolean()) {
            features.add(Feature.DERIVED_TABLE);
            sql = Sql.concat("select ", commaList(items), " from (", body, ") x", outerWhere);
        } else {
            features.add(Feature.CTE);
            Sql cte = Sql.concat("with x as (", body, ") select ", commaList(items), " from x", outerWhere);
            sql = Sql.sqliteOnly(cte.sqlite());
        }
        return new Shape(sql, width, true);
    }

    /** A column of a derived table's output, and whether a comparison with it takes its column's affinity. */
    private record Output(Column column, boolean affinity) {
    }

    /**
     * A derived table, common table or view filtered outside on its columns, as predicate pushdown
     * moves such conditions inside it: a projection (pass-through, collated, cast and computed columns;
     * sometimes distinct), a grouping (conditions on its keys and on its aggregates), a set
     * operation, a join (conditions on its padded side), or an ordered limit. Outside conditions
     * compare across types where SQLite gives the column an affinity (a column reference, a cast
     * or a collated column), and sometimes under an explicit collation. SQLite dialect only.
     */
    private Shape pushdown() {
        features.add(Feature.PREDICATE_PUSHDOWN);
        RandomDatabase.Table t = table();
        List<Column> scope = scope(t, "a");
        List<Output> outputs = new ArrayList<>();
        if (random.nextInt(4) == 0) {
            return filteredView(t, scope, outputs);
        }
        Sql body = switch (random.nextInt(5)) {
            case 0 -> groupedBody(t, scope, outputs);
            case 1 -> setBody(t, scope, outputs);
            case 2 -> joinBody(t, scope, outputs);
            case 3 -> Sql.concat(projectionBody(t, scope, outputs, false), " order by a.id limit ",
                    String.valueOf(1 + random.nextInt(6)), random.nextBoolean() ? " offset 1" : "");
            default -> projectionBody(t, scope, outputs, random.nextInt(4) == 0);
        };
        Sql conditions = outsideConditions(outputs);
        List<Sql> items = outputs.stream().map(o -> o.column().sql()).toList();
        Sql where = Sql.concat(" where ", conditions);
        Sql sql = random.nextBoolean()
                ? Sql.concat("select ", commaList(items), " from (", body, ") x", where)
                : Sql.concat("with x as (", body, ") select ", commaList(items), " from x", where);
        return new Shape(Sql.sqliteOnly(sql.sqlite()), items.size(), true);
    }

    /** One to three {@link #outsideCondition}s over {@code outputs}, joined by {@code and}. */
    private Sql outsideConditions(List<Output> outputs) {
        List<Sql> conditions = new ArrayList<>();
        int n = 1 + random.nextInt(3);
        for (int i = 0; i < n; i++) {
            conditions.add(outsideCondition(outputs));
        }
        return Sql.concat(joined(conditions, " and ").toArray());
    }

    /** One of the {@link RandomDatabase#views views} of {@code t}, filtered outside on its columns. */
    private Shape filteredView(RandomDatabase.Table t, List<Column> scope, List<Output> outputs) {
        String view;
        if (random.nextBoolean()) {
            view = t.name() + "_rows";
            for (Column c : scope) {
                outputs.add(new Output(new Column("x", c.name(), c.type()), true));
            }
        } else {
            view = t.name() + "_groups";
            outputs.add(new Output(new Column("x", "c1", t.columns().get(0)), true));
            outputs.add(new Output(new Column("x", "n", ColumnType.INT), false));
            outputs.add(new Output(new Column("x", "top", ColumnType.INT), false));
        }
        Sql conditions = outsideConditions(outputs);
        List<Sql> items = outputs.stream().map(o -> o.column().sql()).toList();
        Sql sql = Sql.concat("select ", commaList(items), " from ", view, " x where ", conditions);
        return new Shape(Sql.sqliteOnly(sql.sqlite()), outputs.size(), true);
    }

    private static List<Object> joined(List<Sql> parts, String separator) {
        List<Object> out = new ArrayList<>();
        for (int i = 0; i < parts.size(); i++) {
            out.add(i == 0 ? "" : separator);
            out.add(parts.get(i));
        }
        return out;
    }

    private Output output(List<Output> outputs, ColumnType type, boolean affinity) {
        Output o = new Output(new Column("x", "o" + (outputs.size() + 1), type), affinity);
        outputs.add(o);
        return o;
    }

    /** Columns of {@code t} as {@code a}: the key, columns as they are, collated, cast, computed. */
    private Sql projectionBody(RandomDatabase.Table t, List<Column> scope, List<Output> outputs, boolean distinct) {
        List<Object> parts = new ArrayList<>();
        parts.add(distinct ? "select distinct " : "select ");
        int width = 1 + random.nextInt(3);
        for (int i = 0; i < width; i++) {
            Column c = i == 0 && random.nextBoolean() ? scope.get(0) : expressions.pick(scope);
            Sql item;
            ColumnType type = c.type();
            boolean affinity = true;
            int kind = random.nextInt(6);
            if (kind == 0 && c.type() == ColumnType.TEXT && !distinct) {
                item = Sql.concat(c.sql(), " collate nocase");
            } else if (kind == 1) {
                type = c.type() == ColumnType.TEXT ? ColumnType.TEXT : ColumnType.INT;
                item = Sql.concat("cast(", c.sql(), type == ColumnType.TEXT ? " as text)" : " as integer)");
            } else if (kind == 2) {
                type = ColumnType.values()[random.nextInt(3)];
                item = expressions.expr(scope, type, 1).sql();
                affinity = false;
            } else {
                item = c.sql();
            }
            parts.add(i == 0 ? "" : ", ");
            parts.add(item);
            parts.add(" as " + output(outputs, type, affinity).column().name());
        }
        parts.add(" from " + t.name() + " a");
        parts.add(where(scope, 40));
        return Sql.concat(parts.toArray());
    }

    /** Group keys as they are (comparisons take their affinity), then aggregates; sometimes no keys. */
    private Sql groupedBody(RandomDatabase.Table t, List<Column> scope, List<Output> outputs) {
        List<Sql> items = new ArrayList<>();
        List<Sql> keys = new ArrayList<>();
        int n = random.nextInt(4) == 0 ? 0 : 1 + random.nextInt(2);
        for (int i = 0; i < n; i++) {
            Column c = expressions.pick(scope);
            keys.add(c.sql());
            items.add(Sql.concat(c.sql(), " as ", output(outputs, c.type(), true).column().name()));
        }
        int aggregates = 1 + random.nextInt(2);
        for (int i = 0; i < aggregates; i++) {
            Column c = expressions.pick(scope);
            ColumnType type = c.type();
            Sql call = switch (random.nextInt(3)) {
                case 0 -> {
                    type = ColumnType.INT;
                    yield Sql.concat("count(", c.sql(), ")");
                }
                case 1 -> Sql.concat("min(", c.sql(), ")");
                default -> Sql.concat("max(", c.sql(), ")");
            };
            items.add(Sql.concat(call, " as ", output(outputs, type, false).column().name()));
        }
        Sql sql = Sql.concat("select ", commaList(items), " from ", t.name(), " a", where(scope, 40));
        if (!keys.isEmpty()) {
            sql = Sql.concat(sql, " group by ", commaList(keys));
            if (random.nextInt(3) == 0) {
                sql = Sql.concat(sql, " having count(*) > 1");
            }
        }
        return sql;
    }

    /** Two selects of same-typed columns (a literal where the right table has none) under a set operator. */
    private Sql setBody(RandomDatabase.Table left, List<Column> leftScope, List<Output> outputs) {
        RandomDatabase.Table right = table();
        List<Column> rightScope = scope(right, "a");
        int width = 1 + random.nextInt(2);
        List<Sql> leftItems = new ArrayList<>();
        List<Sql> rightItems = new ArrayList<>();
        for (int i = 0; i < width; i++) {
            Column l = i == 0 && random.nextBoolean() ? leftScope.get(0) : expressions.pick(leftScope);
            Column r = expressions.pick(rightScope, l.type());
            leftItems.add(Sql.concat(l.sql(), " as ", output(outputs, l.type(), false).column().name()));
            rightItems.add(r != null ? r.sql() : expressions.literal(l.type()));
        }
        String op = new String[] {" union all ", " union all ", " union ", " intersect ", " except "}[random.nextInt(5)];
        return Sql.concat("select ", commaList(leftItems), " from ", left.name(), " a", where(leftScope, 50), op,
                "select ", commaList(rightItems), " from ", right.name(), " a", where(rightScope, 50));
    }

    /** An inner or left join of two tables, its columns from both sides. */
    private Sql joinBody(RandomDatabase.Table left, List<Column> leftScope, List<Output> outputs) {
        RandomDatabase.Table right = table();
        List<Column> rightScope = scope(right, "b");
        Column r = expressions.pick(rightScope);
        Column l = expressions.pickComparable(leftScope, r.type());
        List<Sql> items = new ArrayList<>();
        for (List<Column> side : List.of(leftScope, rightScope)) {
            Column c = expressions.pick(side);
            items.add(Sql.concat(c.sql(), " as ", output(outputs, c.type(), true).column().name()));
        }
        List<Column> both = new ArrayList<>(leftScope);
        both.addAll(rightScope);
        return Sql.concat("select ", commaList(items), " from ", left.name(), " a",
                random.nextBoolean() ? " left join " : " join ", right.name(), " b on ", l.sql(), " = ", r.sql(),
                where(both, 30));
    }

    /** A condition on the outputs: a comparison (across types where the column has an affinity), a range, a null test, an or. */
    private Sql outsideCondition(List<Output> outputs) {
        Output o = outputs.get(random.nextInt(outputs.size()));
        Column c = o.column();
        switch (random.nextInt(8)) {
            case 0:
                return Sql.concat(c.sql(), random.nextBoolean() ? " is null" : " is not null");
            case 1:
                return Sql.concat(c.sql(), " between ", expressions.literal(c.type()), " and ",
                        expressions.literal(c.type()));
            case 2:
                return Sql.concat("(", outsideCondition(outputs), " or ", outsideCondition(outputs), ")");
            case 3:
                return Sql.concat(c.sql(), " in (", expressions.literal(c.type()), ", ", expressions.literal(c.type()), ")");
            case 4:
                // Never true or false by chance: a non-deterministic condition must not be pushed, yet decides nothing.
                return random.nextBoolean() ? Sql.both("random() is not null") : Sql.both("random() % 2 <= 1");
            default: {
                String op = new String[] {" = ", " <> ", " < ", " <= ", " > ", " >= "}[random.nextInt(6)];
                boolean collated = c.type() == ColumnType.TEXT && random.nextInt(4) == 0;
                ColumnType valueType = o.affinity() && random.nextBoolean()
                        ? ColumnType.values()[random.nextInt(3)] : c.type();
                Sql value = expressions.literal(valueType);
                Sql column = collated
                        ? Sql.concat(c.sql(), random.nextBoolean() ? " collate nocase" : " collate rtrim") : c.sql();
                return random.nextBoolean() ? Sql.concat(column, op, value) : Sql.concat(value, op, column);
            }
        }
    }

    /** Every output position, each ascending or descending, NULL placement explicit for Derby. */
    private Sql orderBy(int width) {
        List<Object> parts = new ArrayList<>();
        parts.add(" order by ");
        for (int i = 1; i <= width; i++) {
            boolean descending = random.nextBoolean();
            int nulls = random.nextInt(3);
            String direction = descending ? " desc" : "";
            String explicit = nulls == 0 ? "" : nulls == 1 ? " nulls first" : " nulls last";
            // SQLite's default: NULLs first ascending, last descending; Derby must be told.
            String derbyNulls = nulls == 0 ? (descending ? " nulls last" : " nulls first") : explicit;
            parts.add(i == 1 ? "" : ", ");
            parts.add(new Sql(i + direction + explicit, i + direction + derbyNulls));
        }
        return Sql.concat(parts.toArray());
    }

    private Sql limit() {
        int limit = 1 + random.nextInt(5);
        int offset = random.nextInt(3);
        if (offset == 0) {
            return new Sql(" limit " + limit, " fetch first " + limit + " rows only");
        }
        return new Sql(" limit " + limit + " offset " + offset,
                " offset " + offset + " rows fetch first " + limit + " rows only");
    }
}
