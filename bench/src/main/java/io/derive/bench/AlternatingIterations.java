package io.derive.bench;

import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;

/**
 * The side each iteration of a benchmark that alternates a measure and its floor in one JVM
 * belongs to ({@link InterleavedRuns}): the measure takes the first warm-up iteration and the
 * first measured one, then the sides take turns, so measured iteration {@code i} is the
 * measure's exactly when {@code i} is even. Asked once per iteration, from a
 * {@code Level.Iteration} setup.
 */
final class AlternatingIterations {
    private boolean measuring;
    private int iterations;

    /** Whether {@code iteration}, the next one, is the measure's. */
    boolean measureIn(IterationParams iteration) {
        boolean measured = iteration.getType() == IterationType.MEASUREMENT;
        if (measured != measuring) {
            measuring = measured;
            iterations = 0;
        }
        return iterations++ % 2 == 0;
    }
}
