package io.derive.batch;

import jakarta.batch.runtime.context.JobContext;

/**
 * The engine's name for the chunked run of a job instance ({@code mv-refresh}, {@code mv-attach}):
 * one per instance, so that every execution of it (a restart too) continues the same run and
 * holds the same lease, and another instance is refused while it holds it.
 */
final class RunName {
    private RunName() {
    }

    /** {@code <job name>:<instance id>} as a SQL string literal. */
    static String literal(JobContext job) {
        return "'" + job.getJobName() + ":" + job.getInstanceId() + "'";
    }
}
