package io.derive.engine.txn;

import io.derive.engine.schema.Catalog;

import java.time.Duration;

/**
 * What transactions of one database share: the committed snapshots (the catalog and the commit
 * sequence a committing transaction advances), and the write lock that makes sure only one
 * transaction changes them.
 */
public final class CommittedState {
    private final Snapshots snapshots = new Snapshots();
    private final WriteLock writeLock;
    private final Duration writeLockTimeout;
    private final PreparedBranches branches = new PreparedBranches();
    private final InDoubtFences fences = new InDoubtFences();
    private volatile CatalogPersistence persistence;

    public CommittedState(WriteLock writeLock, Duration writeLockTimeout) {
        this.writeLock = writeLock;
        this.writeLockTimeout = writeLockTimeout;
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

    WriteLock writeLock() {
        return writeLock;
    }

    Duration writeLockTimeout() {
        return writeLockTimeout;
    }
}
