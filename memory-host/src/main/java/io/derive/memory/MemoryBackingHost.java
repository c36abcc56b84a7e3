package io.derive.memory;

import io.derive.engine.schema.ValueOrder;
import io.derive.engine.spi.BackingHost;
import io.derive.engine.spi.BackingRowChange;
import io.derive.engine.spi.HostSession;
import io.derive.engine.spi.KeyOrder;
import io.derive.engine.spi.MaintenanceOp;
import io.derive.engine.spi.RowCursor;
import io.derive.engine.spi.TableConnection;
import io.derive.engine.spi.TableShape;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/** The backing-host capability of a {@link MemoryTable}: privileged writes with exact change reports. */
final class MemoryBackingHost implements BackingHost {
    private static final Object[] NO_PREFIX = new Object[0];

    private final MemoryTable table;

    MemoryBackingHost(MemoryTable table) {
        this.table = table;
    }

    @Override
    public boolean ownsConnection(TableConnection connection) {
        return connection instanceof MemoryConnection c && c.memoryTable() == table && c.isLive();
    }

    @Override
    public TableConnection connect(HostSession session) {
        return table.connect(session);
    }

    @Override
    public List<BackingRowChange> applyMaintenance(TableConnection connection, List<MaintenanceOp> ops) {
        if (!ownsConnection(connection)) {
            throw new IllegalArgumentException("not a live connection to " + table.shape().qualifiedName());
        }
        List<BackingRowChange> changes = new ArrayList<>();
        for (MaintenanceOp op : ops) {
            if (op instanceof MaintenanceOp.DeleteKey d) {
                deleteKey(connection, d.key(), changes);
            } else if (op instanceof MaintenanceOp.Upsert u) {
                upsert(connection, u.row(), changes);
            } else if (op instanceof MaintenanceOp.DeleteByPrefix d) {
                for (Object[] row : readAll(connection, d.prefix())) {
                    connection.delete(table.shape().keyOf(row));
                    changes.add(BackingRowChange.delete(row));
                }
            } else {
                replaceAll(connection, ((MaintenanceOp.ReplaceAll) op).rows(), changes);
            }
        }
        return changes;
    }

    private void deleteKey(TableConnection connection, Object[] key, List<BackingRowChange> changes) {
        Optional<Object[]> existing = connection.get(key);
        if (existing.isPresent()) {
            connection.delete(key);
            changes.add(BackingRowChange.delete(existing.get()));
        }
    }

    private void upsert(TableConnection connection, Object[] row, List<BackingRowChange> changes) {
        Optional<Object[]> existing = connection.get(table.shape().keyOf(row));
        if (existing.isEmpty()) {
            connection.put(row);
            changes.add(BackingRowChange.insert(row));
        } else if (!ValueOrder.identicalRows(existing.get(), row)) {
            connection.put(row);
            changes.add(BackingRowChange.update(existing.get(), row));
        }
    }

    /** A merge of the effective rows and the new rows, both in key order: the minimal keyed diff. */
    private void replaceAll(TableConnection connection, List<Object[]> rows, List<BackingRowChange> changes) {
        TableShape shape = table.shape();
        KeyOrder order = table.keyOrder();
        List<Object[]> incoming = new ArrayList<>(rows);
        incoming.sort((a, b) -> order.compare(shape.keyOf(a), shape.keyOf(b)));
        List<Object[]> current = readAll(connection, NO_PREFIX);
        int i = 0;
        int j = 0;
        while (i < current.size() || j < incoming.size()) {
            int c = i == current.size() ? 1 : j == incoming.size() ? -1
                    : order.compare(shape.keyOf(current.get(i)), shape.keyOf(incoming.get(j)));
            if (c < 0) {
                connection.delete(shape.keyOf(current.get(i)));
                changes.add(BackingRowChange.delete(current.get(i++)));
            } else if (c > 0) {
                connection.put(incoming.get(j));
                changes.add(BackingRowChange.insert(incoming.get(j++)));
            } else {
                Object[] before = current.get(i++);
                Object[] after = incoming.get(j++);
                if (!ValueOrder.identicalRows(before, after)) {
                    connection.put(after);
                    changes.add(BackingRowChange.update(before, after));
                }
            }
        }
    }

    @Override
    public void replaceContents(List<Object[]> rows, Supplier<? extends RuntimeException> onDuplicateKey) {
        PersistentTree<Object[], Object[]> contents = PersistentTree.empty(table.keyOrder());
        for (Object[] row : rows) {
            Object[] key = table.shape().keyOf(row);
            if (contents.get(key) != null) {
                throw onDuplicateKey.get();
            }
            contents = contents.put(key, row);
        }
        table.replaceCommitted(contents);
    }

    @Override
    public RowCursor scanEffective(TableConnection connection, Object[] prefix, boolean descending) {
        return connection.scan(prefix, descending);
    }

    private static List<Object[]> readAll(TableConnection connection, Object[] prefix) {
        List<Object[]> rows = new ArrayList<>();
        try (RowCursor cursor = connection.scan(prefix, false)) {
            while (cursor.hasNext()) {
                rows.add(cursor.next());
            }
        }
        return rows;
    }
}
