package io.derive.bench;

import io.derive.engine.api.RehydrateReport;
import io.derive.engine.api.Session;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Runs the P6 benchmark's iterations directly on a small durable database, with their untimed
 * steps around them as JMH runs them, to check that one side adopts the view and the other
 * refills the same view, again at every iteration, and that a trial leaves no files behind.
 */
class DerbyReopenBenchmarkTest {
    private static final int ROWS = 500;
    private static final int ITERATIONS = 2;

    private final DerbyReopenBenchmark benchmark = new DerbyReopenBenchmark();

    @Test
    void everyOpenAdoptsTheViewWithItsRows() throws Exception {
        DerbyReopenBenchmark.Adopting state = trial(new DerbyReopenBenchmark.Adopting());
        try {
            for (int i = 0; i < ITERATIONS; i++) {
                state.bootDerby();
                RehydrateReport.Outcome outcome = benchmark.reopenAdoptingTheView(state).rehydrateReport().views().get(0);
                assertThat(outcome.action()).isEqualTo(RehydrateReport.Action.ADOPTED);
                assertViewHoldsEveryRow(state, 0L);
                state.closeDatabase();
            }
        } finally {
            state.deleteDatabase();
        }
        assertThat(Files.exists(state.directory)).isFalse();
    }

    @Test
    void everyOpenRefillsTheSameViewFromTheStaleSet() throws Exception {
        DerbyReopenBenchmark.Refilling state = trial(new DerbyReopenBenchmark.Refilling());
        try {
            for (int i = 0; i < ITERATIONS; i++) {
                state.bootDerby();
                RehydrateReport.Outcome outcome = benchmark.reopenRefillingTheView(state).rehydrateReport().views().get(0);
                assertThat(outcome.action()).isEqualTo(RehydrateReport.Action.REFILLED);
                assertThat(outcome.reason()).isEqualTo(DerbyReopenBenchmark.STALE_REASON);
                assertViewHoldsEveryRow(state, 1L);
                state.closeDatabase();
            }
        } finally {
            state.deleteDatabase();
        }
    }

    @Test
    void anOpenThatDidOtherThanClaimedFailsTheIteration() throws Exception {
        DerbyReopenBenchmark.Adopting state = trial(new DerbyReopenBenchmark.Adopting());
        DerbyReopenBenchmark.Refilling refilling = new DerbyReopenBenchmark.Refilling();
        refilling.directory = state.directory;
        try {
            refilling.bootDerby();
            state.open();
            assertThatThrownBy(state::closeDatabase).hasMessageContaining("the open was to ADOPTED");
        } finally {
            state.deleteDatabase();
        }
    }

    private static <T extends DerbyReopenBenchmark.Adopting> T trial(T state) throws Exception {
        state.rows = ROWS;
        state.createDatabase();
        return state;
    }

    private static void assertViewHoldsEveryRow(DerbyReopenBenchmark.Adopting state, long bodyEvaluations) {
        try (Session s = state.database.openSession()) {
            assertThat(s.execute("select count(*) from " + DerbyReopenBenchmark.VIEW).rows().get(0).get(0))
                    .isEqualTo((long) ROWS);
            assertThat(s.execute("select body_evaluations from materialized_views()").rows().get(0).get(0))
                    .isEqualTo(bodyEvaluations);
        }
    }
}
