package io.derive.engine.schema;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Counters of one maintained table, shown by {@code materialized_views()}. They are observations,
 * not state: a rolled-back refresh still counts its body evaluation.
 */
public final class MaterializedViewStatistics {
    private final AtomicLong bodyEvaluations = new AtomicLong();

    /** Records one full evaluation of the body (a fill or a refresh). */
    public void bodyEvaluated() {
        bodyEvaluations.incrementAndGet();
    }

    public long bodyEvaluations() {
        return bodyEvaluations.get();
    }
}
