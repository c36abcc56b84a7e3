package io.derive.memory;

import io.derive.engine.spi.BackingHost;
import io.derive.engine.spi.HostedTable;
import io.derive.engine.spi.KeyOrder;
import io.derive.engine.spi.TableConnection;
import io.derive.engine.spi.TableShape;

import java.util.Optional;

/**
 * One memory table incarnation. Its committed rows are one {@link PersistentTree} version,
 * replaced as a whole at each commit, so a reader holding a version sees a commit entirely or
 * not at all.
 */
final class MemoryTable implements HostedTable {
    private final TableShape shape;
    private final KeyOrder keyOrder;
    private final MemoryBackingHost backingHost;
    private volatile PersistentTree<Object[], Object[]> committed;

    MemoryTable(TableShape shape) {
        this.shape = shape;
        this.keyOrder = shape.keyOrder();
        this.committed = PersistentTree.empty(keyOrder);
        this.backingHost = new MemoryBackingHost(this);
    }

    @Override
    public TableShape shape() {
        return shape;
    }

    KeyOrder keyOrder() {
        return keyOrder;
    }

    @Override
    public TableConnection connect() {
        return new MemoryConnection(this);
    }

    @Override
    public long committedRowCount() {
        return committed.size();
    }

    @Override
    public Optional<BackingHost> backingHost() {
        return Optional.of(backingHost);
    }

    @Override
    public void drop() {
        committed = PersistentTree.empty(keyOrder);
    }

    PersistentTree<Object[], Object[]> committed() {
        return committed;
    }

    /**
     * Applies a connection's pending writes. Synchronized because the engine's write lock already
     * serializes writers; this only keeps {@link #replaceContents} from interleaving.
     */
    synchronized void publish(PersistentTree<Object[], Object[]> pending) {
        PersistentTree<Object[], Object[]> next = committed;
        var entries = pending.range(k -> 0, false);
        while (entries.hasNext()) {
            var e = entries.next();
            next = e.value() == MemoryConnection.TOMBSTONE ? next.remove(e.key()) : next.put(e.key(), e.value());
        }
        committed = next;
    }

    synchronized void replaceCommitted(PersistentTree<Object[], Object[]> contents) {
        committed = contents;
    }
}
