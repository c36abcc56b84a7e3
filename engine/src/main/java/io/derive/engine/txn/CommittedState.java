package io.derive.engine.txn;

import io.derive.engine.schema.Catalog;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

/**
 * What transactions of one database share: the committed catalog, which a committing
 * transaction replaces, and the write lock that makes sure only one transaction changes it.
 */
public final class CommittedState {
    private final AtomicReference<Catalog> catalog = new AtomicReference<>(Catalog.empty());
    private final WriteLock writeLock;
    private final Duration writeLockTimeout;
    private final PreparedBranches branches = new PreparedBranches();
    private volatile CatalogPersistence persistence;

    public CommittedState(WriteLock writeLock, Duration writeLockTimeout) {
        this.writeLock = writeLock;
        this.writeLockTimeout = writeLockTimeout;
    }

    public Catalog catalog() {
        return catalog.get();
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

    void publish(Catalog next) {
        catalog.set(next);
    }

    WriteLock writeLock() {
        return writeLock;
    }

    Duration writeLockTimeout() {
        return writeLockTimeout;
    }
}
