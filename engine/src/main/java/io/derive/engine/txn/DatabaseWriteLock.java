package io.derive.engine.txn;

import io.derive.engine.api.DeriveException;

import java.time.Duration;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/** The first version of {@link WriteLock}: one writing transaction at a time per database. */
public final class DatabaseWriteLock implements WriteLock {
    private final String databaseName;
    private final ReentrantLock monitor = new ReentrantLock(true);
    private final Condition released = monitor.newCondition();
    private Transaction holder;

    public DatabaseWriteLock(String databaseName) {
        this.databaseName = databaseName;
    }

    @Override
    public void acquire(Transaction owner, Duration timeout) {
        monitor.lock();
        try {
            long remaining = timeout.toNanos();
            while (holder != null && holder != owner) {
                if (remaining <= 0) {
                    throw new DeriveException(DeriveException.LOCK_TIMEOUT, "database '" + databaseName
                            + "' is busy: waited " + timeout.toMillis() + " ms for the write lock, held by "
                            + holder.description());
                }
                remaining = released.awaitNanos(remaining);
            }
            holder = owner;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DeriveException(DeriveException.LOCK_TIMEOUT,
                    "interrupted while waiting for the write lock of database '" + databaseName + "'", e);
        } finally {
            monitor.unlock();
        }
    }

    @Override
    public void release(Transaction owner) {
        monitor.lock();
        try {
            if (holder == owner) {
                holder = null;
                released.signal();
            }
        } finally {
            monitor.unlock();
        }
    }
}
