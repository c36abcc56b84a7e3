package io.derive.bench;

import io.derive.engine.api.Result;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs the statement-text benchmarks directly on a small table: by text and prepared, each reads
 * the row of the key it visits and updates it, with the view kept equal to its body.
 */
class StatementTextBenchmarkTest {
    private static final int ROWS = 50;

    private final StatementTextBenchmark benchmark = new StatementTextBenchmark();

    @ParameterizedTest(name = "{0}, statement cache {1}")
    @CsvSource({"memory, 64", "memory, 0", "derby, 64", "derby, 0"})
    void byTextAndPreparedReadAndWriteTheSameRows(String host, int statementCacheSize) throws Exception {
        StatementTextBenchmark.Table table = new StatementTextBenchmark.Table();
        table.host = host;
        table.statementCacheSize = statementCacheSize;
        table.rows = ROWS;
        table.open();
        try {
            for (int i = 0; i < ROWS; i++) {
                Result byText = i % 2 == 0 ? benchmark.selectByText(table) : benchmark.selectPrepared(table);
                assertThat(byText.rows()).singleElement().satisfies(row -> assertThat(row.values()).containsExactly(0L, "row"));
            }
            for (int i = 0; i < 2 * ROWS; i++) {
                Result updated = i % 2 == 0 ? benchmark.updateByText(table) : benchmark.updatePrepared(table);
                assertThat(updated.updateCount()).isOne();
            }

            assertThat(table.session.execute("select distinct v from t").rows())
                    .singleElement().satisfies(row -> assertThat(row.values()).containsExactly(2L));
            assertThat(table.session.execute("verify materialized view t_proj").rows()).isEmpty();
        } finally {
            table.close();
        }
    }
}
