package io.derive.engine.txn;

import java.time.Duration;

/**
 * Who may write: a transaction takes the lock at its first write and holds it until it ends.
 * The lock belongs to a transaction, not a thread, because an XA transaction manager may
 * prepare and commit on threads other than the one that wrote.
 */
public interface WriteLock {

    /**
     * Takes the lock for {@code owner}, waiting at most {@code timeout}; returns at once when
     * {@code owner} holds it already.
     *
     * @throws io.derive.engine.api.DeriveException ({@link io.derive.engine.api.DeriveException#LOCK_TIMEOUT})
     *         naming the wait and the holder when the timeout passes
     */
    void acquire(Transaction owner, Duration timeout);

    /** Releases the lock if {@code owner} holds it. */
    void release(Transaction owner);
}
