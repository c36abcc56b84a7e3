package io.derive.derby;

import io.derive.engine.schema.ValueOrder;
import io.derive.engine.spi.BackingHost;
import io.derive.engine.spi.BackingRowChange;
import io.derive.engine.spi.HostSession;
import io.derive.engine.spi.KeyOrder;
import io.derive.engine.spi.MaintenanceOp;
import io.derive.engine.spi.RowCursor;
import io.derive.engine.spi.TableConnection;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Supplier;

/**
 * The backing-host capability of a {@link DerbyTable} (semantics §7). Maintenance writes go
 * through the transaction's own {@link DerbyTableConnection}, inside the engine transaction's
 * Derby transaction, with the same undo log as ordinary writes; each reported change is what the
 * write realized, read back from the row it replaced.
 */
final class DerbyBackingHost implements BackingHost {
    private final DerbyTable table;

    DerbyBackingHost(DerbyTable table) {
        this.table = table;
    }

    @Override
    public boolean ownsConnection(TableConnection connection) {
        return connection instanceof DerbyTableConnection c && c.derbyTable() == table && c.live();
    }

    @Override
    public TableConnection connect(HostSession session) {
        return table.connect(session);
    }

    @Override
    public List<BackingRowChange> applyMaintenance(TableConnection connection, List<MaintenanceOp> ops) {
        DerbyTableConnection c = owned(connection);
        List<BackingRowChange> changes = new ArrayList<>();
        for (MaintenanceOp op : ops) {
            if (op instanceof MaintenanceOp.DeleteKey d) {
                Object[] before = c.deleteReturningBefore(d.key());
                if (before != null) {
                    changes.add(BackingRowChange.delete(before));
                }
            } else if (op instanceof MaintenanceOp.Upsert u) {
                upsert(c, u.row(), changes);
            } else if (op instanceof MaintenanceOp.DeleteByPrefix p) {
                for (Object[] row : rows(c, p.prefix())) {
                    c.deleteReturningBefore(table.shape().keyOf(row));
                    changes.add(BackingRowChange.delete(row));
                }
            } else {
                replaceAll(c, ((MaintenanceOp.ReplaceAll) op).rows(), changes);
            }
        }
        return changes;
    }

    @Override
    public void replaceContents(List<Object[]> rows, Supplier<? extends RuntimeException> onDuplicateKey) {
        List<Object[]> sorted = sortedByKey(rows);
        KeyOrder order = table.shape().keyOrder();
        for (int i = 1; i < sorted.size(); i++) {
            if (order.compare(table.shape().keyOf(sorted.get(i - 1)), table.shape().keyOf(sorted.get(i))) == 0) {
                throw onDuplicateKey.get();
            }
        }
        table.replaceCommitted(sorted);
    }

    @Override
    public RowCursor scanEffective(TableConnection connection, Object[] prefix, boolean descending) {
        return owned(connection).scan(prefix, descending);
    }

    private void upsert(DerbyTableConnection c, Object[] row, List<BackingRowChange> changes) {
        Object[] existing = c.get(table.shape().keyOf(row)).orElse(null);
        if (existing != null && ValueOrder.identicalRows(existing, row)) {
            return;
        }
        Object[] before = c.putReturningBefore(row);
        changes.add(before == null ? BackingRowChange.insert(row) : BackingRowChange.update(before, row));
    }

    /** The minimal keyed diff from the effective contents to {@code rows}, applied in key order. */
    private void replaceAll(DerbyTableConnection c, List<Object[]> rows, List<BackingRowChange> changes) {
        List<Object[]> current = rows(c, new Object[0]);
        List<Object[]> wanted = sortedByKey(rows);
        KeyOrder order = table.shape().keyOrder();
        int i = 0;
        int j = 0;
        while (i < current.size() || j < wanted.size()) {
            int cmp = i == current.size() ? 1 : j == wanted.size() ? -1
                    : order.compare(table.shape().keyOf(current.get(i)), table.shape().keyOf(wanted.get(j)));
            if (cmp < 0) {
                Object[] gone = current.get(i++);
                c.deleteReturningBefore(table.shape().keyOf(gone));
                changes.add(BackingRowChange.delete(gone));
            } else if (cmp > 0) {
                Object[] added = wanted.get(j++);
                c.putReturningBefore(added);
                changes.add(BackingRowChange.insert(added));
            } else {
                Object[] before = current.get(i++);
                Object[] after = wanted.get(j++);
                if (!ValueOrder.identicalRows(before, after)) {
                    c.putReturningBefore(after);
                    changes.add(BackingRowChange.update(before, after));
                }
            }
        }
    }

    private List<Object[]> rows(DerbyTableConnection c, Object[] prefix) {
        List<Object[]> rows = new ArrayList<>();
        try (RowCursor cursor = c.scan(prefix, false)) {
            cursor.forEachRemaining(rows::add);
        }
        return rows;
    }

    private List<Object[]> sortedByKey(List<Object[]> rows) {
        KeyOrder order = table.shape().keyOrder();
        List<Object[]> sorted = new ArrayList<>(rows);
        sorted.sort(Comparator.comparing(table.shape()::keyOf, order));
        return sorted;
    }

    private DerbyTableConnection owned(TableConnection connection) {
        if (!ownsConnection(connection)) {
            throw new IllegalArgumentException("not a live connection to " + table.shape().qualifiedName());
        }
        return (DerbyTableConnection) connection;
    }
}
