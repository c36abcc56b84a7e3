package io.derive.memory;

import io.derive.engine.spi.BackingHost;
import io.derive.engine.spi.BackingRowChange;
import io.derive.engine.spi.HostSession;
import io.derive.engine.spi.MaintenanceApplication;
import io.derive.engine.spi.MaintenanceOp;
import io.derive.engine.spi.PersistentTree;
import io.derive.engine.spi.RowCursor;
import io.derive.engine.spi.TableConnection;

import java.util.List;
import java.util.function.Supplier;

/** The backing-host capability of a {@link MemoryTable}: privileged writes with exact change reports. */
final class MemoryBackingHost implements BackingHost {
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
        return MaintenanceApplication.apply(connection, ops);
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
}
