package io.derive.engine.txn;

import io.derive.engine.spi.HostedTable;

import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * The row ids live transactions have given new rows and not yet committed or rolled back: a row
 * id is one more than the largest the table holds, and a transaction cannot see another's
 * uncommitted rows, so without this two inserts into one table would take the same id. Once the
 * transaction ends its ids are in the table (committed) or free again (rolled back), as SQLite
 * reuses the ids of rows deleted from the end.
 */
final class RowIdReservations {
    private final Map<HostedTable, Map<LockOwner, Long>> reserved = new IdentityHashMap<>();

    /**
     * The row id {@code owner} gives its next row in {@code table}: one more than {@code largestSeen}
     * (the largest in its own view of the table) and than every id another live transaction gave.
     * Returns {@link Long#MIN_VALUE} when the largest is {@link Long#MAX_VALUE}.
     */
    synchronized long next(HostedTable table, LockOwner owner, long largestSeen) {
        Map<LockOwner, Long> byOwner = reserved.computeIfAbsent(table, t -> new IdentityHashMap<>());
        long largest = largestSeen;
        for (Map.Entry<LockOwner, Long> e : byOwner.entrySet()) {
            if (e.getKey() != owner) {
                largest = Math.max(largest, e.getValue());
            }
        }
        if (largest == Long.MAX_VALUE) {
            return Long.MIN_VALUE;
        }
        byOwner.merge(owner, largest + 1, Math::max);
        return largest + 1;
    }

    /** Forgets what {@code owner} reserved: it has ended. */
    synchronized void release(LockOwner owner) {
        for (Iterator<Map<LockOwner, Long>> tables = reserved.values().iterator(); tables.hasNext(); ) {
            Map<LockOwner, Long> byOwner = tables.next();
            byOwner.remove(owner);
            if (byOwner.isEmpty()) {
                tables.remove();
            }
        }
    }
}
