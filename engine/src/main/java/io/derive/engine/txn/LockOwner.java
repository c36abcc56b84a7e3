package io.derive.engine.txn;

import java.util.ArrayList;
import java.util.List;

/** Who holds and waits for locks in a {@link LockTable}: a transaction, compared by identity. */
public interface LockOwner {

    /** How lock errors and {@code locks()} name the owner: its session and database. */
    String description();

    /**
     * Where the lock table keeps the locks this owner holds: one object for the owner's life,
     * which only the lock table touches. Kept with the owner rather than in a map of the table's,
     * so that taking a first lock and releasing them all writes nothing other owners share.
     */
    Holdings holdings();

    /** The locks an owner holds, as the {@link LockTable} records them; opaque to everything else. */
    final class Holdings {
        final List<Object> entries = new ArrayList<>();
    }
}
