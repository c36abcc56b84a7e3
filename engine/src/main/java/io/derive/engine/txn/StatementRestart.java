package io.derive.engine.txn;

/**
 * Thrown by {@link Transaction#lock}-taking methods when a lock was granted after a conflicting
 * transaction committed, later than the snapshot the statement reads: the statement may have
 * read a state that no longer holds. The session rolls the statement back to its savepoint and
 * runs it again on a new snapshot, keeping the locks. Never reaches a user.
 */
public final class StatementRestart extends RuntimeException {
    public StatementRestart() {
        super("the statement read a state a concurrent commit has changed", null, false, false);
    }
}
