package io.derive.engine.schema;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Counters of one maintained table, shown by {@code materialized_views()}. They are observations,
 * not state: a rolled-back refresh still counts its body evaluation.
 */
public final class MaterializedViewStatistics {
    private final AtomicLong bodyEvaluations = new AtomicLong();
    private final AtomicLong uniqueProbes = new AtomicLong();
    private final AtomicLong probeRowsRead = new AtomicLong();

    /** Records one full evaluation of the body (a fill or a refresh). */
    public void bodyEvaluated() {
        bodyEvaluations.incrementAndGet();
    }

    public long bodyEvaluations() {
        return bodyEvaluations.get();
    }

    /** Records one UNIQUE conflict check the MV answered as a covering structure, and the backing rows it read. */
    public void uniqueProbed(long rowsRead) {
        uniqueProbes.incrementAndGet();
        probeRowsRead.addAndGet(rowsRead);
    }

    /** How many UNIQUE conflict checks of its source the MV answered since the database opened ({@code unique_probes}). */
    public long uniqueProbes() {
        return uniqueProbes.get();
    }

    /** The backing rows those checks read in all ({@code probe_rows_read}); a seek reads only the colliding ones. */
    public long probeRowsRead() {
        return probeRowsRead.get();
    }
}
