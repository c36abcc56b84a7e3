package io.derive.engine.txn;

import io.derive.engine.schema.Catalog;
import io.derive.engine.spi.HostedTable;

import java.time.Duration;
import java.util.Collection;
import java.util.List;

/**
 * What transactions of one database share: the committed snapshots (the catalog and the commit
 * sequence a committing transaction advances), the locks transactions take on what they write
 * and check, and the order in which each table's commits publish.
 */
public final class CommittedState {
    private final Snapshots snapshots = new Snapshots();
    private final LockTable locks;
    private final Duration lockTimeout;
    private final PublishLocks publishLocks = new PublishLocks();
    private final RowIdReservations rowIds = new RowIdReservations();
    private final PreparedBranches branches = new PreparedBranches();
    private final InDoubtFences fences = new InDoubtFences();
    private final PendingRehydrates pendingRehydrates = new PendingRehydrates();
    private final TransactionCounters counters = new TransactionCounters();
    private final HeapPressure heapPressure;
    private volatile CatalogPersistence persistence;

    /**
     * @param lockTimeout  how long a transaction waits for a lock another transaction holds
     * @param heapPressure what stops statements while the heap is nearly full; the database closes it
     */
    public CommittedState(String databaseName, Duration lockTimeout, HeapPressure heapPressure) {
        this.locks = new LockTable(databaseName);
        this.lockTimeout = lockTimeout;
        this.heapPressure = heapPressure;
    }

    /** The latest committed catalog. */
    public Catalog catalog() {
        return snapshots.latest().catalog();
    }

    /** How many transactions began, committed, rolled back and prepared since the database opened. */
    public TransactionCounters counters() {
        return counters;
    }

    /** The commit sequence and the snapshots statements read. */
    public Snapshots snapshots() {
        return snapshots;
    }

    /** Makes every later catalog change durable through {@code persistence} (a durable database, once it has opened). */
    public void persistThrough(CatalogPersistence persistence) {
        this.persistence = persistence;
    }

    CatalogPersistence persistence() {
        return persistence;
    }

    /** The database's prepared global-transaction branches. */
    public PreparedBranches branches() {
        return branches;
    }

    /** What waits for the outcome of in-doubt branches a process that ended left prepared. */
    public InDoubtFences fences() {
        return fences;
    }

    /** The materialized views a deferred rehydrate left to be refilled. */
    public PendingRehydrates pendingRehydrates() {
        return pendingRehydrates;
    }

    /** The locks of the database's transactions. */
    public LockTable locks() {
        return locks;
    }

    HeapPressure heapPressure() {
        return heapPressure;
    }

    Duration lockTimeout() {
        return lockTimeout;
    }

    RowIdReservations rowIds() {
        return rowIds;
    }

    /** The publish locks of {@code tables}, in the one order every commit takes them in (see {@link PublishLocks}). */
    List<PublishLock> publishLocks(Collection<HostedTable> tables) {
        return publishLocks.of(tables);
    }
}
