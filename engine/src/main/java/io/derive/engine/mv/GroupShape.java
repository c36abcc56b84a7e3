package io.derive.engine.mv;

import io.derive.engine.plan.AccessPath;
import io.derive.engine.plan.AggregateCall;
import io.derive.engine.plan.BoundExpr;
import io.derive.engine.plan.PlanNode;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.spi.TableShape;
import io.derive.engine.types.Collation;
import io.derive.engine.types.SqlType;

import java.util.ArrayList;
import java.util.List;

/**
 * Recognises the group-recompute shape (semantics §4.2): {@code select …, aggregates from t
 * [where …] group by <bare columns> [having …]}, every group column published as a bare output
 * column (they are the backing's key), and builds the arm with its per-group slice plan and, when
 * every aggregate is decomposable, its delta path.
 */
final class GroupShape {
    /** Named parameters through which the slice plan receives one group's key values. */
    static final String GROUP_PARAMETER = "derive_group_key_";

    private GroupShape() {
    }

    static boolean matches(PlanNode plan) {
        PlanNode.Project project = project(plan);
        if (project == null) {
            return false;
        }
        PlanNode below = project.input();
        if (below instanceof PlanNode.Filter having) {
            if (!PerRowShape.rowLocal(having.predicate())) {
                return false;
            }
            below = having.input();
        }
        if (!(below instanceof PlanNode.Aggregate aggregate) || aggregate.groupKeys().isEmpty()) {
            return false;
        }
        PlanNode input = aggregate.input();
        if (input instanceof PlanNode.Filter f) {
            if (!PerRowShape.rowLocal(f.predicate())) {
                return false;
            }
            input = f.input();
        }
        if (!(input instanceof PlanNode.TableScan)) {
            return false;
        }
        for (BoundExpr key : aggregate.groupKeys()) {
            if (!(key instanceof BoundExpr.ColumnSlot)) {
                return false;
            }
        }
        for (AggregateCall call : aggregate.aggregates()) {
            if (!call.arguments().stream().allMatch(PerRowShape::rowLocal)) {
                return false;
            }
        }
        for (int g = 0; g < aggregate.groupKeys().size(); g++) {
            if (outputOf(project, g) < 0) {
                return false;
            }
        }
        return project.expressions().stream().allMatch(PerRowShape::rowLocal);
    }

    static GroupRecompute arm(PlanNode plan, List<String> names, TableShape backing) {
        PlanNode.Project project = project(plan);
        PlanNode.Filter having = project.input() instanceof PlanNode.Filter f ? f : null;
        PlanNode.Aggregate aggregate = (PlanNode.Aggregate) (having != null ? having.input() : project.input());
        BoundExpr where = aggregate.input() instanceof PlanNode.Filter f ? f.predicate() : null;
        PlanNode.TableScan scan = (PlanNode.TableScan) (where != null
                ? ((PlanNode.Filter) aggregate.input()).input() : aggregate.input());
        int groups = aggregate.groupKeys().size();
        int[] sourceColumns = new int[groups];
        int[] outputPositions = new int[groups];
        List<Collation> collations = new ArrayList<>();
        List<BoundExpr> slicePredicate = new ArrayList<>();
        if (where != null) {
            slicePredicate.add(where);
        }
        for (int g = 0; g < groups; g++) {
            BoundExpr.ColumnSlot key = (BoundExpr.ColumnSlot) aggregate.groupKeys().get(g);
            sourceColumns[g] = key.index();
            outputPositions[g] = outputOf(project, g);
            collations.add(key.collation());
            // "is", not "=": a NULL group key is a group too.
            slicePredicate.add(new BoundExpr.Call("is", null,
                    List.of(key, new BoundExpr.ParameterRef(0, GROUP_PARAMETER + g)), SqlType.INTEGER, key.collation(), true));
        }
        PlanNode groupRows = AccessPath.filteredScan(scan.table(), BoundExpr.and(slicePredicate));
        PlanNode orderedRows = inKeyOrder(groupRows, scan.table());
        PlanNode slice = new PlanNode.Aggregate(orderedRows, aggregate.groupKeys(), aggregate.aggregates(),
                aggregate.columns());
        if (having != null) {
            slice = new PlanNode.Filter(slice, having.predicate());
        }
        slice = new PlanNode.Project(slice, project.expressions(), project.columns());
        PlanNode allRows = where == null ? new PlanNode.TableScan(scan.table(), List.of())
                : AccessPath.filteredScan(scan.table(), where);
        GroupFastPath.Rows rows = new GroupFastPath.Rows(groupRows, orderedRows == groupRows, allRows,
                inKeyOrder(allRows, scan.table()) == allRows);
        GroupFastPath fastPath = GroupAlgebra.of(aggregate.aggregates())
                .map(algebra -> new GroupFastPath(scan.table().key(), algebra, where, sourceColumns,
                        scan.table().primaryKey().stream().mapToInt(TableShape.KeyPart::column).toArray(), collations,
                        rows, GROUP_PARAMETER, having == null ? null : having.predicate(), project.expressions(),
                        outputPositions, backing))
                .orElse(null);
        return new GroupRecompute(names, scan.table().key(), sourceColumns, outputPositions, collations, slice, backing,
                fastPath);
    }

    /**
     * The group's rows in the source's physical-key order, the order a scan of the whole table —
     * the body's own evaluation — meets them in. Aggregates that keep the first of equal values
     * ({@code min}/{@code max} under {@code nocase}, the published spelling of a group key) or
     * add in order (a real {@code sum}) give what the body gives only in that order, so a seek
     * through a secondary index, which hands rows out in index order, is sorted back.
     */
    private static PlanNode inKeyOrder(PlanNode rows, TableSchema table) {
        PlanNode access = rows instanceof PlanNode.Filter f ? f.input() : rows;
        if (access instanceof PlanNode.TableScan) {
            return rows;
        }
        List<PlanNode.SortKey> keys = new ArrayList<>();
        for (TableShape.KeyPart part : table.primaryKey()) {
            // Physical key order: NULL first ascending, last descending (the whole order reversed).
            keys.add(new PlanNode.SortKey(part.column(), part.descending(), !part.descending()));
        }
        return new PlanNode.Sort(rows, keys);
    }


    /** The output position publishing group key {@code g} as a bare column, or -1. */
    private static int outputOf(PlanNode.Project project, int g) {
        for (int i = 0; i < project.expressions().size(); i++) {
            if (project.expressions().get(i) instanceof BoundExpr.ColumnSlot s && s.index() == g) {
                return i;
            }
        }
        return -1;
    }

    private static PlanNode.Project project(PlanNode plan) {
        PlanNode top = plan instanceof PlanNode.Sort s ? s.input() : plan;
        return top instanceof PlanNode.Project p ? p : null;
    }
}
