package io.derive.engine.spi;

import io.derive.engine.types.ValueOrder;

import java.util.ArrayList;
import java.util.List;

/**
 * The minimal keyed diff of a table's rows, known exactly, against the rows it must hold, as known
 * changes ({@link MaintenanceOp.Change}), which a host writes without reading the rows again.
 */
public final class KeyedDiff {
    private KeyedDiff() {
    }

    /**
     * @param current  the backing's rows, sorted by key
     * @param incoming the rows it must hold, distinct keys, in any order
     * @return a change per key whose row differs, is new, or goes
     */
    public static List<MaintenanceOp.Change> changes(TableShape shape, List<Object[]> current, List<Object[]> incoming) {
        KeyOrder order = shape.keyOrder();
        List<Object[]> sorted = new ArrayList<>(incoming);
        sorted.sort((a, b) -> order.compare(shape.keyOf(a), shape.keyOf(b)));
        List<MaintenanceOp.Change> changes = new ArrayList<>();
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
