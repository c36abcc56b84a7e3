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
    private final LongAdder readOnly = new LongAdder();
    private final LongAdder rollbacks = new LongAdder();
    private final LongAdder prepares = new LongAdder();

    void begun() {
        begun.increment();
    }

    /** How a transaction ended. */
    enum Outcome {
        /** It wrote and committed. */
        COMMITTED,
        /** It wrote nothing: reads, whether it was committed or rolled back. */
        READ_ONLY,
        /** It wrote and rolled back. */
        ROLLED_BACK
    }

    void ended(Outcome outcome) {
        ended.increment();
        (switch (outcome) {
            case COMMITTED -> commits;
            case READ_ONLY -> readOnly;
            case ROLLED_BACK -> rollbacks;
        }).increment();
    }

    /** A first phase of a two-phase commit voted to commit. */
    void prepared() {
        prepares.increment();
    }

    /** Transactions begun and not yet ended. */
    public long open() {
        return Math.max(0, begun.sum() - ended.sum());
    }

    /** Transactions that wrote and committed. */
    public long commits() {
        return commits.sum();
    }

    /**
     * Transactions that ended having written nothing — the reads of applications, and of an
     * operator's console and metrics, which poll — so that {@link #commits()} counts work done.
     */
    public long readOnly() {
        return readOnly.sum();
    }

    public long rollbacks() {
        return rollbacks.sum();
    }

    public long prepares() {
        return prepares.sum();
    }
}
