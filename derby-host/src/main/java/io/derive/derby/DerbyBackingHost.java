package io.derive.derby;

import io.derive.engine.spi.BackingHost;
import io.derive.engine.spi.BackingRowChange;
import io.derive.engine.spi.HostSession;
import io.derive.engine.spi.KeyOrder;
import io.derive.engine.spi.MaintenanceApplication;
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
 * Derby transaction, kept pending and flushed with ordinary writes.
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
        return MaintenanceApplication.apply(owned(connection), ops);
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
