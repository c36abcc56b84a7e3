package io.derive.engine.schema;

import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counters of one maintained table, shown by {@code materialized_views()}. They are observations,
 * not state: a rolled-back refresh still counts its body evaluation.
 */
public final class MaterializedViewStatistics {
    private final AtomicLong bodyEvaluations = new AtomicLong();
    private final AtomicLong uniqueProbes = new AtomicLong();
    private final AtomicLong probeRowsRead = new AtomicLong();
    private final LongAdder rowsMaintained = new LongAdder();
    private final LongAdder maintenanceNanos = new LongAdder();
    private final LongAdder refreshes = new LongAdder();
    private final LongAdder refreshNanos = new LongAdder();
    private final LongAdder refreshRows = new LongAdder();
    private volatile LastRefresh lastRefresh;

    /**
     * How the last refresh ended.
     *
     * @param at      when its transaction committed or rolled back (or its statement was undone)
     * @param outcome {@code completed: N rows changed} or {@code rolled back}
     */
    public record LastRefresh(Instant at, String outcome) {
    }

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

    /** Records one application of maintenance: the backing rows it changed and the time it took (its cascade not included). */
    public void maintained(long rows, long nanos) {
        rowsMaintained.add(rows);
        maintenanceNanos.add(nanos);
    }

    /** Backing rows maintenance changed since the database opened ({@code rows_maintained}); fills and refreshes not included. */
    public long rowsMaintained() {
        return rowsMaintained.sum();
    }

    /** The time maintenance took in all ({@code maintenance_seconds}), in nanoseconds. */
    public long maintenanceNanos() {
        return maintenanceNanos.sum();
    }

    /** Records one refresh (a statement's, or a chunked run's finish): the rows its diff changed and the time it took. */
    public void refreshed(long rows, long nanos) {
        refreshes.increment();
        refreshRows.add(rows);
        refreshNanos.add(nanos);
    }

    public long refreshes() {
        return refreshes.sum();
    }

    public long refreshNanos() {
        return refreshNanos.sum();
    }

    public long refreshRows() {
        return refreshRows.sum();
    }

    /** Records how the last refresh ended (see {@link LastRefresh}). */
    public void refreshEnded(Instant at, String outcome) {
        lastRefresh = new LastRefresh(at, outcome);
    }

    /** How the last refresh since the database opened ended; empty when none ended yet. */
    public Optional<LastRefresh> lastRefresh() {
        return Optional.ofNullable(lastRefresh);
    }
}
