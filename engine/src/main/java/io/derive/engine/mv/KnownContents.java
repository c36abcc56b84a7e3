package io.derive.engine.mv;

import io.derive.engine.spi.KeyOrder;
import io.derive.engine.spi.MaintenanceOp;
import io.derive.engine.spi.TableShape;
import io.derive.engine.types.ValueOrder;

import java.util.ArrayList;
import java.util.List;

/**
 * The keyed diff of a backing whose rows are known exactly against the rows it must hold, as
 * known changes ({@link MaintenanceOp.Change}): a host writes them without reading the backing,
 * where a {@link MaintenanceOp.ReplaceAll} reads every row back to find the same diff.
 */
final class KnownContents {
    private KnownContents() {
    }

    /**
     * @param current  the backing's rows, sorted by key
     * @param incoming the rows it must hold, distinct keys, in any order
     * @return a change per key whose row differs, is new, or goes
     */
    static List<MaintenanceOp> changes(TableShape shape, List<Object[]> current, List<Object[]> incoming) {
        KeyOrder order = shape.keyOrder();
        List<Object[]> sorted = new ArrayList<>(incoming);
        sorted.sort((a, b) -> order.compare(shape.keyOf(a), shape.keyOf(b)));
        List<MaintenanceOp> changes = new ArrayList<>();
        int i = 0;
        int j = 0;
        while (i < current.size() || j < sorted.size()) {
            int c = i == current.size() ? 1 : j == sorted.size() ? -1
                    : order.compare(shape.keyOf(current.get(i)), shape.keyOf(sorted.get(j)));
            if (c < 0) {
                changes.add(new MaintenanceOp.Change(current.get(i++), null));
            } else if (c > 0) {
                changes.add(new MaintenanceOp.Change(null, sorted.get(j++)));
            } else {
                Object[] before = current.get(i++);
                Object[] after = sorted.get(j++);
                if (!ValueOrder.identicalRows(before, after)) {
                    changes.add(new MaintenanceOp.Change(before, after));
                }
            }
        }
        return changes;
    }
}
