package io.derive.engine.spi;

import io.derive.engine.types.ValueOrder;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@link BackingHost#applyMaintenance} for a host whose connection already reads its own writes:
 * the ops applied through the connection's ordinary reads and writes (a {@link MaintenanceOp.Change}
 * through its writes alone, with the row it knows), each change reported as what it realized
 * (MV-016). Hosts call it after checking that they own the connection.
 */
public final class MaintenanceApplication {
    private static final Object[] WHOLE_TABLE = new Object[0];

    private MaintenanceApplication() {
    }

    /** Applies {@code ops} in order through {@code connection} and returns the realized changes. */
    public static List<BackingRowChange> apply(TableConnection connection, List<MaintenanceOp> ops) {
        TableShape shape = connection.table().shape();
        List<BackingRowChange> changes = new ArrayList<>(ops.size());
        // an indexed loop: maintenance of a single row comes here, and an iterator costs an allocation
        for (int i = 0; i < ops.size(); i++) {
            MaintenanceOp op = ops.get(i);
            if (op instanceof MaintenanceOp.DeleteKey d) {
                Optional<Object[]> existing = connection.get(d.key());
                if (existing.isPresent()) {
                    connection.delete(d.key());
                    changes.add(BackingRowChange.delete(existing.get()));
                }
            } else if (op instanceof MaintenanceOp.Upsert u) {
                upsert(connection, shape, u.row(), changes);
            } else if (op instanceof MaintenanceOp.Change c) {
                change(connection, c, changes);
            } else if (op instanceof MaintenanceOp.DeleteByPrefix d) {
                for (Object[] row : rows(connection, d.prefix())) {
                    connection.delete(shape.keyOf(row));
                    changes.add(BackingRowChange.delete(row));
                }
            } else {
                replaceAll(connection, shape, ((MaintenanceOp.ReplaceAll) op).rows(), changes);
            }
        }
        return changes;
    }

    private static void upsert(TableConnection connection, TableShape shape, Object[] row, List<BackingRowChange> changes) {
        Optional<Object[]> existing = connection.get(shape.keyOf(row));
        if (existing.isEmpty()) {
            connection.put(row);
            changes.add(BackingRowChange.insert(row));
        } else if (!ValueOrder.identicalRows(existing.get(), row)) {
            connection.put(row);
            changes.add(BackingRowChange.update(existing.get(), row));
        }
    }

    private static void change(TableConnection connection, MaintenanceOp.Change change, List<BackingRowChange> changes) {
        Object[] before = change.before();
        Object[] after = change.after();
        if (after == null) {
            connection.remove(before);
            changes.add(BackingRowChange.delete(before));
        } else if (before == null || !ValueOrder.identicalRows(before, after)) {
            connection.replace(before, after);
            changes.add(before == null ? BackingRowChange.insert(after) : BackingRowChange.update(before, after));
        }
    }

    /** The minimal keyed diff of the effective rows and the new rows, written as known changes: the rows were just read. */
    private static void replaceAll(TableConnection connection, TableShape shape, List<Object[]> rows,
                                   List<BackingRowChange> changes) {
        for (MaintenanceOp.Change change : KeyedDiff.changes(shape, rows(connection, WHOLE_TABLE), rows)) {
            change(connection, change, changes);
        }
    }

    private static List<Object[]> rows(TableConnection connection, Object[] prefix) {
        List<Object[]> rows = new ArrayList<>();
        try (RowCursor cursor = connection.scan(prefix, false)) {
            cursor.forEachRemaining(rows::add);
        }
        return rows;
    }
}
