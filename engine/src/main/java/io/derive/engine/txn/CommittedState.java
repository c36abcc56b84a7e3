package io.derive.engine.txn;

import io.derive.engine.schema.Catalog;

import java.time.Duration;
import java.util.concurrent.locks.ReentrantLock;

/**
 * What transactions of one database share: the committed snapshots (the catalog and the commit
 * sequence a committing transaction advances), the locks transactions take on what they write
 * and check, and the order in which commits publish.
 */
public final class CommittedState {
    private final Snapshots snapshots = new Snapshots();
    private final LockTable locks;
    private final Duration lockTimeout;
    /**
     * Held from the moment a commit takes its sequence number until it is published, so that
     * commits publish in sequence order and a snapshot never includes a commit whose
     * predecessor is still being published.
     */
    private final ReentrantLock publishing = new ReentrantLock();
    private final RowIdReservations rowIds = new RowIdReservations();
    private final PreparedBranches branches = new PreparedBranches();
    private final InDoubtFences fences = new InDoubtFences();
    private volatile CatalogPersistence persistence;

    /** @param lockTimeout how long a transaction waits for a lock another transaction holds */
    public CommittedState(String databaseName, Duration lockTimeout) {
        this.locks = new LockTable(databaseName);
        this.lockTimeout = lockTimeout;
    }

    /** The latest committed catalog. */
    public Catalog catalog() {
        return snapshots.latest().catalog();
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

    /** The locks of the database's transactions. */
    public LockTable locks() {
        return locks;
    }

    Duration lockTimeout() {
        return lockTimeout;
    }

    RowIdReservations rowIds() {
        return rowIds;
    }

    ReentrantLock publishing() {
        return publishing;
    }
}
