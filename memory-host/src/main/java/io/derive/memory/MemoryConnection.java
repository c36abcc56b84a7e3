package io.derive.memory;

import io.derive.engine.api.DeriveException;
import io.derive.engine.spi.HostedTable;
import io.derive.engine.spi.LookaheadCursor;
import io.derive.engine.spi.RowCursor;
import io.derive.engine.spi.TableConnection;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.function.ToIntFunction;

/**
 * A transaction's connection to a {@link MemoryTable}: pending writes are a private
 * {@link PersistentTree} of key → row (or {@link #TOMBSTONE}) layered over committed state.
 * A savepoint is just the pending version at that moment.
 */
final class MemoryConnection implements TableConnection {
    /** Marks a key deleted in pending state. */
    static final Object[] TOMBSTONE = new Object[0];

    private final MemoryTable table;
    private final List<PersistentTree<Object[], Object[]>> savepoints = new ArrayList<>();
    private PersistentTree<Object[], Object[]> pending;
    private boolean live = true;

    MemoryConnection(MemoryTable table) {
        this.table = table;
        this.pending = PersistentTree.empty(table.keyOrder());
    }

    @Override
    public HostedTable table() {
        return table;
    }

    MemoryTable memoryTable() {
        return table;
    }

    boolean isLive() {
        return live;
    }

    @Override
    public Optional<Object[]> get(Object[] key) {
        requireLive();
        Object[] row = pending.get(key);
        if (row == null) {
            row = table.committed().get(key);
        } else if (row == TOMBSTONE) {
            row = null;
        }
        return Optional.ofNullable(row);
    }

    @Override
    public RowCursor scan(Object[] prefix, boolean descending) {
        requireLive();
        ToIntFunction<Object[]> probe = key -> table.keyOrder().compareToPrefix(key, prefix);
        return new MergingCursor(table.committed().range(probe, descending), pending.range(probe, descending), descending);
    }

    @Override
    public void put(Object[] row) {
        requireLive();
        pending = pending.put(table.shape().keyOf(row), row);
    }

    @Override
    public void delete(Object[] key) {
        requireLive();
        if (table.committed().get(key) != null) {
            pending = pending.put(key, TOMBSTONE);
        } else {
            pending = pending.remove(key);
        }
    }

    @Override
    public boolean hasPendingWrites() {
        return !pending.isEmpty();
    }

    @Override
    public void savepoint(int depth) {
        requireLive();
        while (savepoints.size() >= depth) {
            savepoints.remove(savepoints.size() - 1);
        }
        while (savepoints.size() < depth) {
            savepoints.add(pending);
        }
    }

    @Override
    public void releaseSavepoint(int depth) {
        while (savepoints.size() >= depth) {
            savepoints.remove(savepoints.size() - 1);
        }
    }

    @Override
    public void rollbackToSavepoint(int depth) {
        requireLive();
        if (depth < 1 || depth > savepoints.size()) {
            throw new DeriveException(DeriveException.TRANSACTION_STATE, "no savepoint at depth " + depth
                    + " on table " + table.shape().qualifiedName());
        }
        pending = savepoints.get(depth - 1);
        while (savepoints.size() > depth) {
            savepoints.remove(savepoints.size() - 1);
        }
    }

    @Override
    public void commit() {
        requireLive();
        if (!pending.isEmpty()) {
            table.publish(pending);
        }
        end();
    }

    @Override
    public void rollback() {
        if (live) {
            end();
        }
    }

    private void end() {
        live = false;
        pending = PersistentTree.empty(table.keyOrder());
        savepoints.clear();
    }

    private void requireLive() {
        if (!live) {
            throw new DeriveException(DeriveException.TRANSACTION_STATE, "the connection to table "
                    + table.shape().qualifiedName() + " has ended");
        }
    }

    /** Committed and pending entries merged in key order; a pending entry wins, a tombstone hides. */
    private final class MergingCursor extends LookaheadCursor {
        private final Iterator<PersistentTree.Entry<Object[], Object[]>> committed;
        private final Iterator<PersistentTree.Entry<Object[], Object[]>> pendingEntries;
        private final boolean descending;
        private PersistentTree.Entry<Object[], Object[]> c;
        private PersistentTree.Entry<Object[], Object[]> p;

        MergingCursor(Iterator<PersistentTree.Entry<Object[], Object[]>> committed,
                      Iterator<PersistentTree.Entry<Object[], Object[]>> pendingEntries, boolean descending) {
            this.committed = committed;
            this.pendingEntries = pendingEntries;
            this.descending = descending;
            c = committed.hasNext() ? committed.next() : null;
            p = pendingEntries.hasNext() ? pendingEntries.next() : null;
        }

        @Override
        protected Object[] advance() {
            while (c != null || p != null) {
                int order = c == null ? 1 : p == null ? -1 : table.keyOrder().compare(c.key(), p.key());
                if (descending && c != null && p != null) {
                    order = -order;
                }
                if (order < 0) {
                    Object[] row = c.value();
                    c = committed.hasNext() ? committed.next() : null;
                    return row;
                }
                if (order == 0) {
                    c = committed.hasNext() ? committed.next() : null;
                }
                Object[] row = p.value();
                p = pendingEntries.hasNext() ? pendingEntries.next() : null;
                if (row != TOMBSTONE) {
                    return row;
                }
            }
            return null;
        }

        @Override
        public void close() {
            // nothing to release: versions are garbage-collected
        }
    }
}
