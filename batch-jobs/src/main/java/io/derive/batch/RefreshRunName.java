package io.derive.batch;

import jakarta.batch.runtime.context.JobContext;

/**
 * The engine's name for the chunked refresh run of an {@code mv-refresh} job instance: one per
 * instance, so that every execution of it (a restart too) continues the same run and holds the
 * same lease, and another instance is refused while it holds it.
 */
final class RefreshRunName {
    private RefreshRunName() {
    }

    /** {@code mv-refresh:<instance id>} as a SQL string literal. */
    static String literal(JobContext job) {
        return "'mv-refresh:" + job.getInstanceId() + "'";
    }
}
