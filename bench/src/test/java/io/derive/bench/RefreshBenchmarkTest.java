package io.derive.bench;

import io.derive.engine.api.Row;
import io.derive.engine.api.Session;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/** Runs the refresh benchmark directly on a small source, to check that its view stays equal to its body. */
class RefreshBenchmarkTest {
    private static final int ROWS = 1_000;
    private static final int CALLS = 5;

    private final RefreshBenchmark benchmark = new RefreshBenchmark();
    private Session check;

    @BeforeEach
    void openTrial() throws Exception {
        benchmark.rows = ROWS;
        benchmark.openDatabase();
        check = benchmark.database.openSession();
    }

    @AfterEach
    void closeTrial() {
        check.close();
        benchmark.closeDatabase();
    }

    @Test
    void refreshLeavesTheViewEqualToItsBody() {
        IntStream.range(0, CALLS).forEach(i -> benchmark.refreshMaterializedView());

        assertThat(viewRows()).hasSize(ROWS).isEqualTo(bodyRows());
    }

    @Test
    void updateOneSourceRowChangesOneRowAndKeepsTheViewEqualToItsBody() {
        IntStream.range(0, CALLS).forEach(i -> assertThat(benchmark.updateOneSourceRow().updateCount()).isOne());

        assertThat(check.execute("select id from src_copy where a <> id").rows()).hasSize(CALLS);
        assertThat(viewRows()).isEqualTo(bodyRows());
    }

    @Test
    void viewBodyEvaluationsCountOneFillAndOnePerRefresh() {
        IntStream.range(0, CALLS).forEach(i -> benchmark.refreshMaterializedView());

        assertThat(check.execute("""
                select body_evaluations from materialized_views() where name = 'src_copy'
                """).rows().get(0).get(0)).isEqualTo(1L + CALLS);
    }

    private List<List<Object>> viewRows() {
        return rows("select id, a from src_copy order by id");
    }

    private List<List<Object>> bodyRows() {
        return rows(RefreshBenchmark.VIEW_BODY + " order by id");
    }

    private List<List<Object>> rows(String sql) {
        return check.execute(sql).rows().stream().map(Row::values).toList();
    }
}
