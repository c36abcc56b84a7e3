package io.derive.bench;

import io.derive.engine.api.Row;
import io.derive.engine.api.Session;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Runs the covering-UNIQUE benchmark's loads directly on a tiny table, on both hosts, with the
 * untimed re-create before each as JMH runs it, to check that each load inserts every row, that
 * the UNIQUE still holds and that the covered side's view equals its body.
 */
class CoveringUniqueBenchmarkTest {
    private static final int ROWS = 300;
    private static final int LOADS = 2;

    private final CoveringUniqueBenchmark benchmark = new CoveringUniqueBenchmark();
    private CoveringUniqueBenchmark.Load trial;
    private Session check;

    @AfterEach
    void closeTrial() {
        check.close();
        trial.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"memory", "derby"})
    void eachCoveredLoadStartsEmptyAndLeavesTheViewEqualToItsBody(String host) {
        CoveringUniqueBenchmark.Covered load = open(new CoveringUniqueBenchmark.Covered(), host);

        for (int i = 0; i < LOADS; i++) {
            load.recreate();
            assertThat(benchmark.bulkInsertWithCoveringView(load)).isEqualTo(ROWS);
        }

        assertThat(count("t")).isEqualTo(ROWS);
        assertThat(rows("select a, b, k from cov order by a, b"))
                .isEqualTo(rows(CoveringUniqueBenchmark.COVERING_BODY));
        assertUniqueHolds();
    }

    @ParameterizedTest
    @ValueSource(strings = {"memory", "derby"})
    void eachFloorLoadStartsEmptyAndHasNoView(String host) {
        CoveringUniqueBenchmark.Load load = open(new CoveringUniqueBenchmark.Load(), host);

        for (int i = 0; i < LOADS; i++) {
            load.recreate();
            assertThat(benchmark.bulkInsertWithAutoIndexOnly(load)).isEqualTo(ROWS);
        }

        assertThat(count("t")).isEqualTo(ROWS);
        assertThat(rows("select name from materialized_views()")).isEmpty();
        assertUniqueHolds();
    }

    @ParameterizedTest
    @ValueSource(strings = {"memory", "derby"})
    void everyLoadedPairIsDistinctSoEveryInsertPassesItsCheck(String host) {
        CoveringUniqueBenchmark.Covered load = open(new CoveringUniqueBenchmark.Covered(), host);
        load.recreate();
        benchmark.bulkInsertWithCoveringView(load);

        assertThat(rows("select count(distinct a) from t")).containsExactly(List.of((long) ROWS));
    }

    private void assertUniqueHolds() {
        assertThatThrownBy(() -> check.execute("insert into t values (" + ROWS + ", "
                + CoveringUniqueBenchmark.a(7, ROWS) + ", '" + CoveringUniqueBenchmark.b(7) + "')"))
                .hasMessageContaining("UNIQUE constraint failed");
    }

    private <T extends CoveringUniqueBenchmark.Load> T open(T state, String host) {
        state.rows = ROWS;
        state.host = host;
        state.open();
        trial = state;
        check = state.database.openSession();
        return state;
    }

    private long count(String table) {
        return check.execute("select k from " + table).rows().size();
    }

    private List<List<Object>> rows(String sql) {
        return check.execute(sql).rows().stream().map(Row::values).toList();
    }
}
