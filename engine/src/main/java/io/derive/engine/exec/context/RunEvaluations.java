package io.derive.engine.exec.context;

import io.derive.engine.schema.TableSchema;

import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What the chunked runs of this open of the database (refresh and attach runs) keep in memory:
 * for each run's lease, the body's rows as that run evaluated them once, in key order, which its
 * {@code continue} steps write out a chunk at a time. A run whose evaluation is not here (the
 * database reopened since) evaluates its body again at its next step. Also the identity of this
 * open, by which a run's lease tells a live run from one a crash abandoned. And, for each run
 * that asked from its start, the keys its view's sources were written at since
 * ({@link SourceWrites}), so that the end of the run need not evaluate the whole body again.
 */
public final class RunEvaluations {
    /**
     * One run's evaluation, and how far into it the run's committed chunks reached in this open.
     */
    public static final class Evaluation {
        private final String run;
        private final List<Object[]> rows;
        private final SourceWrites writes;
        private final TableSchema source;
        private final String bodySql;
        private volatile int committed = -1;
        private volatile boolean wroteFromEmpty;

        /** @param rows the body's rows as the run's target stores them, sorted by its key */
        public Evaluation(String run, List<Object[]> rows) {
            this(run, rows, null, null, null);
        }

        /**
         * @param writes  the writes recorded for the run since before {@code rows} were read, or null
         * @param source  the body's one source as the evaluation read it, or null
         * @param bodySql the body evaluated
         */
        public Evaluation(String run, List<Object[]> rows, SourceWrites writes, TableSchema source, String bodySql) {
            this.run = run;
            this.rows = List.copyOf(rows);
            this.writes = writes;
            this.source = source;
            this.bodySql = bodySql;
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

        /**
         * Every key of {@link #source} written since before this evaluation read it, when the run
         * recorded them all from its start; empty otherwise.
         */
        public Optional<SourceWrites> writesSince() {
            return Optional.ofNullable(writes).filter(w -> !w.overflowed());
        }

        /** The body's one source as this evaluation read it (null when the body reads several). */
        public TableSchema source() {
            return source;
        }

        /** The body this evaluation evaluated (null when not told). */
        public String bodySql() {
            return bodySql;
        }
    }

    /**
     * The keys at which one run's view's sources were written since the run started: recorded by
     * every row change of a source, committed or not (a key written and rolled back is merely
     * looked at again), until {@value #LIMIT} keys, past which the run no longer relies on them.
     */
    public static final class SourceWrites {
        static final int LIMIT = 100_000;
        private final String run;
        private final ConcurrentHashMap<String, ConcurrentSkipListSet<Object[]>> bySource = new ConcurrentHashMap<>();
        private final AtomicInteger recorded = new AtomicInteger();
        private volatile boolean overflowed;

        SourceWrites(String run) {
            this.run = run;
        }

        void record(TableSchema source, Object[] row) {
            if (overflowed) {
                return;
            }
            if (recorded.incrementAndGet() > LIMIT) {
                overflowed = true;
                bySource.clear();
                return;
            }
            var shape = source.storage().shape();
            bySource.computeIfAbsent(source.key(), k -> new ConcurrentSkipListSet<>(shape.keyOrder()))
                    .add(shape.keyOf(row));
        }

        boolean overflowed() {
            return overflowed;
        }

        /** The keys of the source of catalog key {@code source} written, in its key order. */
        public List<Object[]> keysOf(String source) {
            ConcurrentSkipListSet<Object[]> keys = bySource.get(source);
            return keys == null ? List.of() : List.copyOf(keys);
        }

        /** The sources written, by catalog key. */
        public java.util.Set<String> sources() {
            return java.util.Set.copyOf(bySource.keySet());
        }
    }

    private final String open = UUID.randomUUID().toString();
    private final ConcurrentHashMap<String, Evaluation> byLease = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, SourceWrites> writesByLease = new ConcurrentHashMap<>();

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

    /** Forgets the evaluation kept under {@code lease}, whichever run made it, and the writes recorded for it. */
    public void forget(String lease) {
        byLease.remove(lease);
        writesByLease.remove(lease);
    }

    /**
     * Starts recording the writes of the sources of the view under {@code lease} for {@code run}.
     * Call it while no transaction that wrote those sources is open and none can start (the
     * caller holds the catalog exclusive), so that every write a later evaluation does not see is
     * recorded. A run already recording goes on; a run that has evaluated its body without
     * recording stays so (what was written before now would be missing).
     */
    public void recordWrites(String lease, String run) {
        if (of(lease, run).isPresent()) {
            return;
        }
        writesByLease.compute(lease, (l, w) -> w != null && w.run.equals(run) ? w : new SourceWrites(run));
    }

    /** What {@code run} records under {@code lease}, to be kept with its evaluation; null when it does not record. */
    public SourceWrites writesOf(String lease, String run) {
        SourceWrites writes = writesByLease.get(lease);
        return writes != null && writes.run.equals(run) ? writes : null;
    }

    /** Whether any run records writes: the test a writer makes before looking for one. */
    public boolean recording() {
        return !writesByLease.isEmpty();
    }

    /** Records that row {@code before} or {@code after} of {@code source}, a source of the view under {@code lease}, changed. */
    public void written(String lease, TableSchema source, Object[] before, Object[] after) {
        SourceWrites writes = writesByLease.get(lease);
        if (writes != null) {
            if (before != null) {
                writes.record(source, before);
            }
            if (after != null) {
                writes.record(source, after);
            }
        }
    }
}
