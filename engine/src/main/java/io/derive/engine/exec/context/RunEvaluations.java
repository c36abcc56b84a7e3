package io.derive.engine.exec.context;

import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the chunked runs of this open of the database (refresh and attach runs) keep in memory:
 * for each run's lease, the body's rows as that run evaluated them once, in key order, which its
 * {@code continue} steps write out a chunk at a time. A run whose evaluation is not here (the
 * database reopened since) evaluates its body again at its next step. Also the identity of this
 * open, by which a run's lease tells a live run from one a crash abandoned.
 */
public final class RunEvaluations {
    /**
     * One run's evaluation, and how far into it the run's committed chunks reached in this open.
     */
    public static final class Evaluation {
        private final String run;
        private final List<Object[]> rows;
        private volatile int committed = -1;
        private volatile boolean wroteFromEmpty;

        /** @param rows the body's rows as the run's target stores them, sorted by its key */
        public Evaluation(String run, List<Object[]> rows) {
            this.run = run;
            this.rows = List.copyOf(rows);
        }

        public String run() {
            return run;
        }

        public List<Object[]> rows() {
            return rows;
        }

        /**
         * The position in {@link #rows} after the last chunk this open committed; -1 before the
         * first, when the run's lease is the only record of where it stands.
         */
        public int committed() {
            return committed;
        }

        /**
         * Records a chunk's commit; the run's lease is locked by the chunk, so chunks commit one at
         * a time. {@code firstOnEmpty}: the chunk is this evaluation's first, and its target held no
         * row before it.
         */
        public void chunkCommitted(int position, boolean firstOnEmpty) {
            if (committed < 0) {
                wroteFromEmpty = firstOnEmpty;
            }
            committed = position;
        }

        /** Whether the run's target holds exactly {@link #rows}: this evaluation wrote all of them into it, starting empty. */
        public boolean wroteAll() {
            return wroteFromEmpty && committed == rows.size();
        }
    }

    private final String open = UUID.randomUUID().toString();
    private final ConcurrentHashMap<String, Evaluation> byLease = new ConcurrentHashMap<>();

    /** Differs between any two opens of a database, also two opens in one process. */
    public String open() {
        return open;
    }

    /** The evaluation {@code run} keeps under {@code lease} ({@code schema.name}); empty when it has none here. */
    public Optional<Evaluation> of(String lease, String run) {
        return Optional.ofNullable(byLease.get(lease)).filter(e -> e.run().equals(run));
    }

    public void keep(String lease, Evaluation evaluation) {
        byLease.put(lease, evaluation);
    }

    /** Forgets the evaluation kept under {@code lease}, whichever run made it. */
    public void forget(String lease) {
        byLease.remove(lease);
    }
}
