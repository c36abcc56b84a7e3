package io.derive.engine.mv;

import io.derive.engine.plan.BoundExpr;
import io.derive.engine.plan.PlanNode;
import io.derive.engine.plan.QueryBinder;
import io.derive.engine.schema.Catalog;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.spi.TableShape;
import io.derive.engine.sql.Parser;
import io.derive.engine.sql.ast.Expr;
import io.derive.engine.sql.ast.QualifiedName;
import io.derive.engine.sql.ast.Select;
import io.derive.engine.sql.ast.SourceSpan;
import io.derive.engine.types.Collation;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Recognises the 1:1 join shape (semantics §4.3): a driving table joined (inner, or left with the
 * lookup on the right) to lookup tables whose whole primary key the {@code on} condition equates
 * with driving-table columns, the MV keyed by the driving table's primary key. Such an MV has one
 * row per driving row, so it is kept current slice by slice: a driving-table write recomputes its
 * key, a lookup-table write recomputes the driving keys that reference the changed lookup key.
 * An {@code order by} of driving-table columns is allowed: its columns then lead the backing's key,
 * so a driving key's row is found under them, and the slice key carries them after the driving key.
 */
final class KeyedShape {
    static final String KEY_PARAMETER = "derive_driving_key_";
    static final String LOOKUP_PARAMETER = "derive_lookup_key_";

    /** A table of the join, by the name its columns are qualified with. */
    private record Source(String qualifier, TableSchema table) {
    }

    /**
     * What a recognised body is made of.
     *
     * @param keyOutputs the output positions publishing the driving table's key
     * @param ordered    pairs {output position, driving column} of the order by columns leading the
     *                   backing's key ahead of the driving key (those not already in it)
     * @param lateral    true for a lateral fan-out body (several rows per driving key)
     */
    record Parts(Source driving, List<Integer> keyOutputs, List<int[]> ordered, Map<Source, int[][]> lookupPairs,
                 boolean lateral) {
    }

    private KeyedShape() {
    }

    /** The body's parts when it has the shape, else empty. */
    static Optional<Parts> match(Select body, PlanNode plan, Map<String, TableSchema> sources) {
        if (!body.with().isEmpty() || !body.compounds().isEmpty() || body.isGrouped() || body.distinct()
                || body.limit() != null || !(body.from() instanceof Select.Join)) {
            return Optional.empty();
        }
        List<Source> tables = new ArrayList<>();
        List<Expr> on = new ArrayList<>();
        if (!flatten(body.from(), sources, tables, on, true) || tables.size() != sources.size()) {
            return Optional.empty();
        }
        Optional<List<Integer>> key = KeyAnalysis.key(plan);
        if (key.isEmpty() || key.get().isEmpty()) {
            return Optional.empty();
        }
        Source driving = null;
        for (Source t : tables) {
            if (publishesKey(body, key.get(), t)) {
                driving = t;
            }
        }
        if (driving == null || tables.indexOf(driving) != 0) {
            return Optional.empty();
        }
        Map<Source, int[][]> lookups = new LinkedHashMap<>();
        for (Source t : tables) {
            if (t != driving) {
                int[][] pairs = lookupPairs(t, driving, on);
                if (pairs == null) {
                    return Optional.empty();
                }
                lookups.put(t, pairs);
            }
        }
        List<int[]> ordered = ordered(body, plan, key.get(), driving.table());
        if (ordered == null) {
            return Optional.empty();
        }
        return Optional.of(new Parts(driving, key.get(), ordered, lookups, false));
    }

    /**
     * The lateral fan-out shape (semantics §4.4): {@code from t cross join lateral
     * generate_series(…)} (or {@code t, generate_series(…)}), publishing t's key, with the backing's
     * physical key starting with it, so one base key's rows are a prefix of the backing.
     */
    static Optional<Parts> matchLateral(Select body, PlanNode plan, Map<String, TableSchema> sources,
                                        List<TableShape.KeyPart> physicalKey) {
        if (!body.with().isEmpty() || !body.compounds().isEmpty() || body.isGrouped() || body.distinct()
                || body.limit() != null || !body.orderBy().isEmpty() || sources.size() != 1
                || !(body.from() instanceof Select.Join j) || !(j.left() instanceof Select.NamedTable base)
                || !(j.right() instanceof Select.TableFunction f) || !f.name().equalsIgnoreCase("generate_series")
                || j.condition() != null || !j.using().isEmpty() || j.natural()
                || (j.kind() != Select.JoinKind.CROSS && j.kind() != Select.JoinKind.INNER)) {
            return Optional.empty();
        }
        TableSchema table = sources.values().iterator().next();
        Source driving = new Source(base.alias() != null ? base.alias() : base.name().name(), table);
        List<Integer> keyOutputs = new ArrayList<>();
        for (var part : table.primaryKey()) {
            String column = table.columns().get(part.column()).name();
            int position = -1;
            for (int i = 0; i < body.items().size() && position < 0; i++) {
                if (body.items().get(i) instanceof Select.Column c && c.expr() instanceof Expr.ColumnRef ref
                        && ref.column().equalsIgnoreCase(column)
                        && (ref.table() == null || ref.table().equalsIgnoreCase(driving.qualifier()))) {
                    position = i;
                }
            }
            if (position < 0) {
                return Optional.empty();
            }
            keyOutputs.add(position);
        }
        if (KeyAnalysis.key(plan).isEmpty() || physicalKey.size() < keyOutputs.size()) {
            return Optional.empty();
        }
        for (int i = 0; i < keyOutputs.size(); i++) {
            if (!keyOutputs.contains(physicalKey.get(i).column())) {
                return Optional.empty();
            }
        }
        return Optional.of(new Parts(driving, keyOutputs, List.of(), Map.of(), true));
    }

    /**
     * The order by columns outside the driving key, as {output position, driving column}, when
     * each is an output publishing a driving-table column as it is (the driving table is written
     * first, so its columns are the joined row's first slots); null when one is anything else
     * (a lookup column could move a driving key's row under a lookup-table write).
     */
    private static List<int[]> ordered(Select body, PlanNode plan, List<Integer> keyOutputs, TableSchema driving) {
        List<int[]> ordered = new ArrayList<>();
        if (body.orderBy().isEmpty()) {
            return ordered;
        }
        if (!(plan instanceof PlanNode.Sort sort) || !(sort.input() instanceof PlanNode.Project project)
                || project.expressions().size() != body.items().size()) {
            return null; // hidden sort columns: the order by is not over output columns
        }
        for (PlanNode.SortKey k : sort.keys()) {
            if (!(project.expressions().get(k.column()) instanceof BoundExpr.ColumnSlot slot)
                    || slot.index() >= driving.columns().size()) {
                return null;
            }
            if (!keyOutputs.contains(k.column()) && ordered.stream().noneMatch(o -> o[0] == k.column())) {
                ordered.add(new int[] {k.column(), slot.index()});
            }
        }
        return ordered;
    }

    /** The driving table of a 1:1 join. */
    static TableSchema driving(Parts parts) {
        return parts.driving().table();
    }

    /** Per lookup table, the driving table's columns that reference its key: what a lookup write seeks by. */
    static List<java.util.Set<Integer>> referencingColumns(Parts parts) {
        List<java.util.Set<Integer>> sets = new ArrayList<>();
        for (int[][] pairs : parts.lookupPairs().values()) {
            java.util.Set<Integer> columns = new java.util.LinkedHashSet<>();
            for (int[] pair : pairs) {
                columns.add(pair[1]);
            }
            sets.add(columns);
        }
        return sets;
    }

    static KeyedRecompute arm(Parts parts, String bodySql, Catalog catalog, List<String> names, TableShape backing) {
        Select body = Parser.parseQuery(bodySql);
        SourceSpan at = body.span();
        TableSchema driving = parts.driving().table();
        List<Expr> keyEquals = new ArrayList<>();
        int[] drivingKey = new int[driving.primaryKey().size()];
        List<Collation> collations = new ArrayList<>();
        for (int i = 0; i < drivingKey.length; i++) {
            drivingKey[i] = driving.primaryKey().get(i).column();
            collations.add(driving.columns().get(drivingKey[i]).collation());
            keyEquals.add(equals(parts.driving().qualifier(), driving.columns().get(drivingKey[i]).name(),
                    KEY_PARAMETER + i, at));
        }
        int[] sliceColumns = new int[drivingKey.length + parts.ordered().size()];
        int[] outputs = new int[sliceColumns.length];
        System.arraycopy(drivingKey, 0, sliceColumns, 0, drivingKey.length);
        System.arraycopy(parts.keyOutputs().stream().mapToInt(Integer::intValue).toArray(), 0, outputs, 0,
                drivingKey.length);
        for (int i = 0; i < parts.ordered().size(); i++) {
            outputs[drivingKey.length + i] = parts.ordered().get(i)[0];
            sliceColumns[drivingKey.length + i] = parts.ordered().get(i)[1];
            collations.add(driving.columns().get(sliceColumns[drivingKey.length + i]).collation());
        }
        Expr where = Expr.and(body.where() == null ? keyEquals : prepend(body.where(), keyEquals));
        Select slice = new Select(body.with(), body.recursive(), body.distinct(), body.items(), body.from(), where,
                body.groupBy(), body.having(), body.compounds(), body.orderBy(), body.limit(), body.offset(), at);
        PlanNode slicePlan = new QueryBinder(catalog, bodySql).bind(slice);
        Map<String, KeyedRecompute.Lookup> lookups = new LinkedHashMap<>();
        for (Map.Entry<Source, int[][]> e : parts.lookupPairs().entrySet()) {
            lookups.put(e.getKey().table().key(), lookup(driving, sliceColumns, e.getKey().table(), e.getValue(),
                    catalog, at));
        }
        return new KeyedRecompute(parts.lateral() ? KeyedRecompute.LATERAL_ARM : KeyedRecompute.ARM, names,
                driving.key(), sliceColumns, outputs, collations, slicePlan, backing, lookups,
                !parts.ordered().isEmpty());
    }

    /**
     * {@code select <slice columns> from driving where <fk column> = :lookup_i …}: the slice keys
     * (driving key, then ordering columns) of the driving rows a lookup key reaches.
     */
    private static KeyedRecompute.Lookup lookup(TableSchema driving, int[] sliceColumns, TableSchema table,
                                                int[][] pairs, Catalog catalog, SourceSpan at) {
        List<Select.SelectItem> items = new ArrayList<>();
        for (int column : sliceColumns) {
            items.add(new Select.Column(new Expr.ColumnRef(null, driving.columns().get(column).name(), at), null, at));
        }
        List<Expr> conditions = new ArrayList<>();
        int[] lookupColumns = new int[pairs.length];
        int[] drivingColumns = new int[pairs.length];
        for (int i = 0; i < pairs.length; i++) {
            lookupColumns[i] = pairs[i][0];
            drivingColumns[i] = pairs[i][1];
            conditions.add(equals(null, driving.columns().get(pairs[i][1]).name(), LOOKUP_PARAMETER + i, at));
        }
        Select find = new Select(List.of(), false, false, items,
                new Select.NamedTable(new QualifiedName(driving.schema(), driving.name(), at), null, at), Expr.and(conditions),
                List.of(), null, List.of(), List.of(), null, null, at);
        String text = "select from " + driving.qualifiedName();
        return new KeyedRecompute.Lookup(lookupColumns, drivingColumns, new QueryBinder(catalog, text).bind(find));
    }

    /**
     * For a lookup table, pairs {lookup column, driving column} from the {@code on} equalities
     * covering the lookup table's whole primary key, or null when they do not.
     */
    private static int[][] lookupPairs(Source lookup, Source driving, List<Expr> on) {
        List<int[]> pairs = new ArrayList<>();
        for (var part : lookup.table().primaryKey()) {
            String keyColumn = lookup.table().columns().get(part.column()).name();
            int[] pair = null;
            for (Expr c : on) {
                if (c instanceof Expr.Binary b && b.operator().equals("=")) {
                    pair = pair != null ? pair : pairOf(b.left(), b.right(), lookup, keyColumn, driving);
                    pair = pair != null ? pair : pairOf(b.right(), b.left(), lookup, keyColumn, driving);
                }
            }
            if (pair == null) {
                return null;
            }
            pairs.add(pair);
        }
        return pairs.toArray(new int[0][]);
    }

    private static int[] pairOf(Expr lookupSide, Expr drivingSide, Source lookup, String keyColumn, Source driving) {
        if (lookupSide instanceof Expr.ColumnRef l && drivingSide instanceof Expr.ColumnRef d
                && lookup.qualifier().equalsIgnoreCase(l.table() == null ? "" : l.table())
                && l.column().equalsIgnoreCase(keyColumn)
                && driving.qualifier().equalsIgnoreCase(d.table() == null ? "" : d.table())) {
            int lookupColumn = lookup.table().columnIndex(l.column()).orElse(-1);
            int drivingColumn = driving.table().columnIndex(d.column()).orElse(-1);
            return lookupColumn < 0 || drivingColumn < 0 ? null : new int[] {lookupColumn, drivingColumn};
        }
        return null;
    }

    /** Whether the outputs at the key positions are the table's primary-key columns, qualified by it. */
    private static boolean publishesKey(Select body, List<Integer> key, Source t) {
        List<String> pk = new ArrayList<>();
        t.table().primaryKey().forEach(p -> pk.add(t.table().columns().get(p.column()).name().toLowerCase()));
        if (pk.size() != key.size() || body.items().size() <= key.stream().max(Integer::compare).orElse(0)) {
            return false;
        }
        List<String> published = new ArrayList<>();
        for (int position : key) {
            if (!(body.items().get(position) instanceof Select.Column c) || !(c.expr() instanceof Expr.ColumnRef ref)
                    || ref.table() == null || !ref.table().equalsIgnoreCase(t.qualifier())) {
                return false;
            }
            published.add(ref.column().toLowerCase());
        }
        return published.containsAll(pk);
    }

    /** The join tree's tables in written order and its on-conditions; false when it is not a plain join of tables. */
    private static boolean flatten(Select.TableRef ref, Map<String, TableSchema> sources, List<Source> tables,
                                   List<Expr> on, boolean leftmost) {
        if (ref instanceof Select.NamedTable n) {
            TableSchema table = null;
            for (TableSchema t : sources.values()) {
                if (t.name().equalsIgnoreCase(n.name().name())
                        && (n.name().schema() == null || t.schema().equalsIgnoreCase(n.name().schema()))) {
                    table = t;
                }
            }
            if (table == null) {
                return false;
            }
            tables.add(new Source(n.alias() != null ? n.alias() : n.name().name(), table));
            return true;
        }
        if (!(ref instanceof Select.Join j) || j.natural() || !j.using().isEmpty() || j.condition() == null
                || (j.kind() != Select.JoinKind.INNER && j.kind() != Select.JoinKind.LEFT)) {
            return false;
        }
        if (!flatten(j.left(), sources, tables, on, leftmost) || !(j.right() instanceof Select.NamedTable)
                || !flatten(j.right(), sources, tables, on, false)) {
            return false;
        }
        on.addAll(Expr.conjuncts(j.condition()));
        return true;
    }


    private static Expr equals(String qualifier, String column, String parameter, SourceSpan at) {
        return new Expr.Binary("=", new Expr.ColumnRef(qualifier, column, at), new Expr.Parameter(0, parameter, at), at);
    }

    private static List<Expr> prepend(Expr first, List<Expr> rest) {
        List<Expr> all = new ArrayList<>();
        all.add(first);
        all.addAll(rest);
        return all;
    }

}
