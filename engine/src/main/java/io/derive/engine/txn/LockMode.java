package io.derive.engine.txn;

/**
 * How a transaction holds a lock. Rows and values are locked {@link #SHARED} (read by a check or
 * by maintenance, which must not change until the transaction ends) or {@link #EXCLUSIVE}
 * (written); a whole table is locked with an intention mode by the transactions that lock its
 * rows, so that one that needs the whole table ({@link #EXCLUSIVE}, a full rebuild) and those
 * working on its rows exclude each other.
 */
public enum LockMode {
    INTENT_SHARED,
    INTENT_EXCLUSIVE,
    SHARED,
    EXCLUSIVE;

    private static final boolean[][] COMPATIBLE = {
            //              IS     IX     S      X
            /* IS */ {true, true, true, false},
            /* IX */ {true, true, false, false},
            /* S  */ {true, false, true, false},
            /* X  */ {false, false, false, false},
    };

    /** Whether two transactions may hold the same lock, one in this mode and one in {@code other}. */
    public boolean compatibleWith(LockMode other) {
        return COMPATIBLE[ordinal()][other.ordinal()];
    }

    /** The weakest mode that grants both this one and {@code other}: what a transaction holds after asking for both. */
    LockMode join(LockMode other) {
        if (this == other || covers(other)) {
            return this;
        }
        if (other.covers(this)) {
            return other;
        }
        // intention-exclusive with shared (SIX in the textbooks) only exclusive covers here
        return EXCLUSIVE;
    }

    private boolean covers(LockMode other) {
        return this == EXCLUSIVE || other == INTENT_SHARED;
    }
}
