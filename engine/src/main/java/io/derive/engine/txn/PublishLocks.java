package io.derive.engine.txn;

import io.derive.engine.spi.HostedTable;

import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Per table, the lock a commit holds from the moment it takes its sequence number until it has
 * published the table, so that each table's commits publish in sequence order. Every commit
 * looks its tables' locks up, so the look-up takes no lock of its own; a table is held weakly,
 * so that a dropped or reshaped table's lock goes with it.
 */
final class PublishLocks {
    private static final Comparator<PublishLock> IN_ORDER = Comparator.comparingLong(PublishLock::order);

    /** Keyed by {@link TableRef}; looked up by {@link Lookup}, which allocates no reference. */
    private final Map<Object, PublishLock> locks = new ConcurrentHashMap<>();
    private final ReferenceQueue<HostedTable> gone = new ReferenceQueue<>();
    private final AtomicLong order = new AtomicLong();

    /** The publish locks of {@code tables}, in the one order every commit takes them in, so that commits never wait in a cycle. */
    List<PublishLock> of(Collection<HostedTable> tables) {
        List<PublishLock> found = new ArrayList<>(tables.size());
        for (HostedTable table : tables) {
            found.add(of(table));
        }
        if (found.size() > 1) {
            found.sort(IN_ORDER);
        }
        return found;
    }

    private PublishLock of(HostedTable table) {
        PublishLock lock = locks.get(new Lookup(table));
        if (lock != null) {
            return lock;
        }
        for (Object ref; (ref = gone.poll()) != null; ) {
            locks.remove(ref);
        }
        return locks.computeIfAbsent(new TableRef(table, gone),
                t -> new PublishLock(order.incrementAndGet()));
    }

    /** A table by identity, for a look-up: equal to the {@link TableRef} of the same table. */
    private record Lookup(HostedTable table) {
        @Override
        public boolean equals(Object o) {
            return o instanceof TableRef ref && ref.get() == table || o instanceof Lookup other && other.table == table;
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(table);
        }
    }

    /** A table by identity, weakly; once cleared, equal only to itself, so that it can still be removed. */
    private static final class TableRef extends WeakReference<HostedTable> {
        private final int hash;

        TableRef(HostedTable table, ReferenceQueue<HostedTable> queue) {
            super(table, queue);
            this.hash = System.identityHashCode(table);
        }

        @Override
        public boolean equals(Object o) {
            if (o == this) {
                return true;
            }
            HostedTable table = get();
            return table != null && (o instanceof TableRef other && table == other.get()
                    || o instanceof Lookup lookup && table == lookup.table());
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }
}
