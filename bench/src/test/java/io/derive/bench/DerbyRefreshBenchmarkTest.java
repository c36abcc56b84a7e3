package io.derive.bench;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.PreparedStatement;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs the P4 benchmark methods directly on a small source, to check that the refresh keeps the
 * view equal to its body, that the floor rebuilds the same groups, and that each side's call is
 * one committed transaction.
 */
class DerbyRefreshBenchmarkTest {
    private static final int ROWS = 3_000;
    private static final int CALLS = 3;
    private static final String GROUPS = "select k, n, total from g order by k";

    private final DerbyRefreshBenchmark benchmark = new DerbyRefreshBenchmark();
    private final DerbyRefreshBenchmark.DeriveSource derive = new DerbyRefreshBenchmark.DeriveSource();
    private final DerbyRefreshBenchmark.DerbySource derby = new DerbyRefreshBenchmark.DerbySource();

    @BeforeEach
    void openTrial() throws Exception {
        derive.rows = ROWS;
        derive.aggregatesInDerby = true;
        derby.rows = ROWS;
        derive.open();
        derby.open();
    }

    @AfterEach
    void closeTrial() throws Exception {
        derive.close();
        derby.close();
    }

    @Test
    void bothSidesRefreshToTheSameGroups() throws Exception {
        for (int i = 0; i < CALLS; i++) {
            assertThat(benchmark.refreshDeriveView(derive).updateCount()).isZero();
            assertThat(benchmark.refreshDerbyTable(derby)).isEqualTo(DerbyRefreshBenchmark.GROUPS);
        }

        List<List<Object>> deriveGroups = ComparableRows.of(derive.session.execute(GROUPS));
        assertThat(deriveGroups).hasSize(DerbyRefreshBenchmark.GROUPS)
                .isEqualTo(ComparableRows.of(derive.session.execute(DerbyRefreshBenchmark.GROUP_BODY + " order by k")))
                .isEqualTo(derbyGroups());
    }

    @Test
    void eachRefreshEvaluatesTheBodyOnce() {
        for (int i = 0; i < CALLS; i++) {
            benchmark.refreshDeriveView(derive);
        }

        assertThat(derive.session.execute("""
                select body_evaluations from materialized_views() where name = 'g'
                """).rows().get(0).get(0)).isEqualTo(1L + CALLS);
    }

    @Test
    void theFloorsRefreshIsCommitted() throws Exception {
        benchmark.refreshDerbyTable(derby);
        derby.database.connection().rollback();

        assertThat(derbyGroups()).hasSize(DerbyRefreshBenchmark.GROUPS);
    }

    private List<List<Object>> derbyGroups() throws Exception {
        try (PreparedStatement p = derby.database.connection().prepareStatement(GROUPS)) {
            return ComparableRows.of(DerbyMemoryDatabase.rows(p, 3));
        }
    }
}
