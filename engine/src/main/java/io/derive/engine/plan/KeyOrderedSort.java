package io.derive.engine.plan;

import io.derive.engine.spi.TableShape;

import java.util.List;

/**
 * An {@code order by} that the rows already follow needs no sort: a scan of a table's physical
 * key (a prefix seek or a key range included) yields rows in key order, so an order by the key's
 * leading columns — each ascending where the key is, under the column's own collation, as the
 * columns are, not as expressions of them — is that order. This is what keeps {@code order by
 * k limit n} (paging through a table) from reading and sorting every row after the first.
 */
final class KeyOrderedSort {
    private KeyOrderedSort() {
    }

    /** {@code input} sorted by {@code keys}: {@code input} itself when its rows come in that order already. */
    static PlanNode sorted(PlanNode input, List<PlanNode.SortKey> keys) {
        return inKeyOrder(input, keys) ? input : new PlanNode.Sort(input, keys);
    }

    private static boolean inKeyOrder(PlanNode input, List<PlanNode.SortKey> keys) {
        PlanNode node = input;
        List<BoundExpr> projected = null;
        if (node instanceof PlanNode.Project project) {
            projected = project.expressions();
            node = project.input();
        }
        while (node instanceof PlanNode.Filter filter) {
            node = filter.input();
        }
        if (!(node instanceof PlanNode.TableScan scan)) {
            return false;
        }
        List<TableShape.KeyPart> key = scan.table().primaryKey();
        if (keys.size() > key.size()) {
            return false;
        }
        for (int i = 0; i < keys.size(); i++) {
            PlanNode.SortKey sortKey = keys.get(i);
            int column = projected == null ? sortKey.column()
                    : projected.get(sortKey.column()) instanceof BoundExpr.ColumnSlot slot ? slot.index() : -1;
            TableShape.KeyPart part = key.get(i);
            // NOT NULL: where NULLs sort (first or last) is then moot.
            if (column != part.column()
                    || sortKey.descending() != part.descending()
                    || !scan.table().columns().get(part.column()).notNull()
                    || input.columns().get(sortKey.column()).collation() != scan.table().columns().get(part.column()).collation()) {
                return false;
            }
        }
        return true;
    }
}
