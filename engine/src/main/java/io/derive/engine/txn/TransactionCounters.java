package io.derive.engine.txn;

import java.util.concurrent.atomic.LongAdder;

/**
 * Counters of one database's transactions since it opened, shown by {@code transaction_counts()}:
 * observations for an operator's metrics, not state.
 */
public final class TransactionCounters {
    private final LongAdder begun = new LongAdder();
    private final LongAdder ended = new LongAdder();
    private final LongAdder commits = new LongAdder();
    private final LongAdder rollbacks = new LongAdder();
    private final LongAdder prepares = new LongAdder();

    void begun() {
        begun.increment();
    }

    /** A transaction ended: committed (a read-only one too) or not. */
    void ended(boolean committed) {
        ended.increment();
        (committed ? commits : rollbacks).increment();
    }

    /** A first phase of a two-phase commit voted to commit. */
    void prepared() {
        prepares.increment();
    }

    /** Transactions begun and not yet ended. */
    public long open() {
        return Math.max(0, begun.sum() - ended.sum());
    }

    public long commits() {
        return commits.sum();
    }

    public long rollbacks() {
        return rollbacks.sum();
    }

    public long prepares() {
        return prepares.sum();
    }
}
