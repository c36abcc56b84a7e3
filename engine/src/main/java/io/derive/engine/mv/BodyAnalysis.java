package io.derive.engine.mv;

import io.derive.engine.api.DeriveException;
import io.derive.engine.plan.BoundExpr;
import io.derive.engine.plan.OutputColumn;
import io.derive.engine.plan.PlanAnalysis;
import io.derive.engine.plan.PlanNode;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.spi.TableShape;
import io.derive.engine.sql.ast.Select;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What registration learns of a bound body (semantics §3): its sources, the five create-time
 * gates, the backing's keys, and the cheapest sound maintenance arm.
 *
 * @param arm     the arm chosen
 * @param sources every table the body reads, subqueries included, by catalog key
 * @param columns the body's output columns
 * @param key     the backing's physical key: {@code order by} output columns, then the logical key
 * @param plan    the bound body
 * @param join    for the 1:1 join arm, the body's driving and lookup tables
 * @param declaredKey whether {@code key} is a declared primary key the body cannot prove (then
 *                the arm is the full rebuild, which checks the key on every rebuild)
 */
record BodyAnalysis(Arm arm, Map<String, TableSchema> sources, List<OutputColumn> columns,
                    List<TableShape.KeyPart> key, PlanNode plan, Optional<KeyedShape.Parts> join, boolean declaredKey) {

    /** The maintenance arms of semantics §4 implemented so far. */
    enum Arm { PER_ROW, GROUP, JOIN, LATERAL, FULL_REBUILD }

    /**
     * @param view                  the MV's qualified name, for messages
     * @param nondeterministicLifted {@code pragma nondeterministic_schema}: a full-rebuild body may then
     *                              be non-deterministic
     * @param rebuildThreshold      {@code pragma materialized_view_rebuild_row_threshold}; 0 disables the gate
     */
    static BodyAnalysis of(String view, Select body, PlanNode plan, boolean nondeterministicLifted, long rebuildThreshold) {
        return of(view, body, plan, nondeterministicLifted, rebuildThreshold, null);
    }

    /**
     * As {@link #of(String, Select, PlanNode, boolean, long)}, for a table that declares its
     * primary key ({@code declaredKey}, null for none). When the declared key is not the body's
     * provable key (other columns, or none is provable) the backing is keyed by the declared key
     * and maintained by the full-rebuild floor: only re-deriving every row and checking it
     * against that key at statement end keeps the table exact, since the per-row, group and
     * join arms locate a changed row by the body's own key, which then does not identify it.
     */
    static BodyAnalysis of(String view, Select body, PlanNode plan, boolean nondeterministicLifted, long rebuildThreshold,
                           List<TableShape.KeyPart> declaredKey) {
        String cannot = "materialized view '" + view + "' cannot be materialized: ";
        Map<String, TableSchema> sources = new LinkedHashMap<>();
        collectSources(plan, sources);
        if (sources.isEmpty()) {
            throw definition(cannot + "reads no source table", body);
        }
        if (PlanAnalysis.readsParameters(plan)) {
            throw definition("materialized view '" + view + "': a body cannot use parameters", body);
        }
        List<Integer> logicalKey = logicalKey(plan).orElse(null);
        List<TableShape.KeyPart> provable = logicalKey == null ? null : physicalKey(plan, logicalKey);
        if (declaredKey != null && provable != null && !sameColumns(provable, declaredKey)) {
            // A declared table keeps its own primary key: an order by there only orders the body.
            List<TableShape.KeyPart> unordered = provable.stream().filter(p -> logicalKey.contains(p.column())).toList();
            provable = sameColumns(unordered, declaredKey) ? unordered : provable;
        }
        boolean declared = declaredKey != null && (provable == null || !sameColumns(provable, declaredKey));
        Optional<KeyedShape.Parts> join = Optional.empty();
        Arm arm = declared ? Arm.FULL_REBUILD
                : PerRowShape.matches(plan) ? Arm.PER_ROW : GroupShape.matches(plan) ? Arm.GROUP : Arm.FULL_REBUILD;
        if (arm == Arm.FULL_REBUILD && !declared && PlanAnalysis.deterministic(plan)) {
            join = KeyedShape.match(body, plan, sources);
            arm = join.isPresent() ? Arm.JOIN : arm;
        }
        String nondeterministic = nondeterministicColumn(plan);
        if (nondeterministic != null && !(arm == Arm.FULL_REBUILD && nondeterministicLifted)) {
            throw definition(cannot + "non-deterministic expression column '" + nondeterministic + "'"
                    + (arm == Arm.FULL_REBUILD ? " (pragma nondeterministic_schema = true allows it for this body)" : ""),
                    body);
        }
        if (provable == null && !declared) {
            throw definition(cannot + "no provable unique key", body);
        }
        List<TableShape.KeyPart> key = declared ? declaredKey : provable;
        if (arm == Arm.GROUP && key.size() != logicalKey.size()) {
            // Ordering by an aggregate would re-key a group's row; only a rebuild keeps that sound.
            arm = Arm.FULL_REBUILD;
        }
        if (arm == Arm.FULL_REBUILD && !declared && PlanAnalysis.deterministic(plan)) {
            join = KeyedShape.matchLateral(body, plan, sources, key);
            arm = join.isPresent() ? Arm.LATERAL : arm;
        }
        if (arm == Arm.FULL_REBUILD && rebuildThreshold > 0) {
            for (TableSchema source : sources.values()) {
                long rows = source.storage().committedRowCount();
                if (rows > rebuildThreshold) {
                    throw definition(cannot + (declared
                            ? "its declared primary key is not the body's provable key, so it can only be maintained by a"
                            + " full rebuild, and source '" : "its body can only be maintained by a full rebuild and source '")
                            + source.qualifiedName() + "' has " + rows + " rows, more than pragma"
                            + " materialized_view_rebuild_row_threshold (" + rebuildThreshold + ")", body);
                }
            }
        }
        return new BodyAnalysis(arm, sources, plan.columns(), key, plan, join, declared);
    }

    /** Whether two keys name the same columns in the same order (a direction difference is the caller's to report). */
    private static boolean sameColumns(List<TableShape.KeyPart> a, List<TableShape.KeyPart> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            if (a.get(i).column() != b.get(i).column()) {
                return false;
            }
        }
        return true;
    }

    /** The output columns the body's {@code order by} adds to its logical key in the physical key. */
    static List<Integer> orderKeyColumns(PlanNode plan) {
        List<Integer> logical = logicalKey(plan).orElse(List.of());
        List<Integer> columns = new ArrayList<>();
        if (plan instanceof PlanNode.Sort sort) {
            for (PlanNode.SortKey k : sort.keys()) {
                if (k.column() < plan.columns().size() && !logical.contains(k.column())) {
                    columns.add(k.column());
                }
            }
        }
        return columns;
    }

    /** The body's provable key as output columns; a body of at most one row (an empty key) is keyed by all of them. */
    private static Optional<List<Integer>> logicalKey(PlanNode plan) {
        return KeyAnalysis.key(plan).map(l -> l.isEmpty()
                ? java.util.stream.IntStream.range(0, plan.columns().size()).boxed().toList() : l);
    }

    /** Order-by output columns first (they choose the scan order), then the logical key. */
    private static List<TableShape.KeyPart> physicalKey(PlanNode plan, List<Integer> logicalKey) {
        List<TableShape.KeyPart> key = new ArrayList<>();
        List<Integer> used = new ArrayList<>();
        if (plan instanceof PlanNode.Sort sort) {
            for (PlanNode.SortKey k : sort.keys()) {
                if (k.column() < plan.columns().size() && !used.contains(k.column())) {
                    key.add(new TableShape.KeyPart(k.column(), k.descending()));
                    used.add(k.column());
                }
            }
        }
        for (int column : logicalKey) {
            if (!used.contains(column)) {
                key.add(new TableShape.KeyPart(column, false));
                used.add(column);
            }
        }
        return key;
    }

    /** The first output column whose value is not deterministic, or "?" for one elsewhere in the body. */
    private static String nondeterministicColumn(PlanNode plan) {
        PlanNode top = plan instanceof PlanNode.Sort s ? s.input() : plan;
        if (top instanceof PlanNode.Project p) {
            for (int i = 0; i < p.expressions().size(); i++) {
                if (!p.expressions().get(i).deterministic()) {
                    return p.columns().get(i).name();
                }
            }
        }
        return PlanAnalysis.deterministic(plan) ? null : plan.columns().get(0).name();
    }

    /** The tables a plan reads: its scans and those of the subqueries its expressions hold. */
    static void collectSources(PlanNode node, Map<String, TableSchema> out) {
        if (node instanceof PlanNode.TableScan scan) {
            out.put(scan.table().key(), scan.table());
        } else if (node instanceof PlanNode.IndexScan scan) {
            out.put(scan.table().key(), scan.table());
        }
        for (PlanNode child : PlanAnalysis.inputs(node)) {
            collectSources(child, out);
        }
        for (BoundExpr e : PlanAnalysis.ownExpressions(node)) {
            collectSubquerySources(e, out);
        }
    }

    private static void collectSubquerySources(BoundExpr e, Map<String, TableSchema> out) {
        if (e instanceof BoundExpr.Subquery q) {
            collectSources(q.plan(), out);
            if (q.operand() != null) {
                collectSubquerySources(q.operand(), out);
            }
        } else if (e instanceof BoundExpr.Call c) {
            c.arguments().forEach(a -> collectSubquerySources(a, out));
        }
    }

    private static DeriveException definition(String message, Select body) {
        return body.span().error(DeriveException.INVALID_DEFINITION, message);
    }
}
