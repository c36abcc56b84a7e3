package io.derive.engine.txn;

/** Who holds and waits for locks in a {@link LockTable}: a transaction, compared by identity. */
public interface LockOwner {

    /** How lock errors and {@code locks()} name the owner: its session and database. */
    String description();
}
