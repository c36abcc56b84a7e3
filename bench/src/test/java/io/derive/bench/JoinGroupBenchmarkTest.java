package io.derive.bench;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs the join benchmark directly on small tables, to check that it joins and groups every
 * order and that Derive and its Derby floor agree on the totals.
 */
class JoinGroupBenchmarkTest {
    private static final int ROWS = 1_000;
    private static final int CALLS = 3;

    private final JoinGroupBenchmark benchmark = new JoinGroupBenchmark();
    private final JoinGroupBenchmark.DeriveOrders derive = new JoinGroupBenchmark.DeriveOrders();
    private final JoinGroupBenchmark.DerbyOrders derby = new JoinGroupBenchmark.DerbyOrders();

    @BeforeEach
    void openTrial() throws Exception {
        derive.rows = ROWS;
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
    void regionTotalsCountEveryOrderOncePerRegion() {
        List<List<Object>> totals = ComparableRows.of(benchmark.deriveRegionTotals(derive));

        assertThat(totals).hasSize(JoinGroupBenchmark.REGIONS);
        assertThat(totals.stream().mapToLong(row -> (Long) row.get(1)).sum()).isEqualTo(ROWS);
    }

    @Test
    void regionTotalsAreTheSameOnBothSidesAtEveryRun() throws Exception {
        for (int i = 0; i < CALLS; i++) {
            assertThat(ComparableRows.of(benchmark.deriveRegionTotals(derive)))
                    .isEqualTo(ComparableRows.of(benchmark.derbyRegionTotals(derby)));
        }
    }
}
