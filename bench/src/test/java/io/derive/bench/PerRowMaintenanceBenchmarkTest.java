package io.derive.bench;

import io.derive.engine.api.Result;
import io.derive.engine.api.Row;
import io.derive.engine.api.Session;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.function.Supplier;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/** Runs the benchmark methods directly, to check that each measures the work it claims to. */
class PerRowMaintenanceBenchmarkTest {
    private static final int CALLS = 5;

    private final PerRowMaintenanceBenchmark benchmark = new PerRowMaintenanceBenchmark();
    private Session check;

    @BeforeEach
    void openTrial() {
        benchmark.openDatabase();
        check = benchmark.database.openSession();
    }

    @AfterEach
    void closeTrial() {
        check.close();
        benchmark.closeDatabase();
    }

    @Test
    void insertWithMaterializedViewKeepsTheViewEqualToItsBody() {
        List<Result> results = call(benchmark::insertWithMaterializedView);

        assertThat(results).allSatisfy(r -> assertThat(r.updateCount()).isOne());
        assertThat(count("src_mv")).isEqualTo(PerRowMaintenanceBenchmark.PRELOADED_ROWS + CALLS);
        assertThat(viewRows()).isEqualTo(bodyRows());
    }

    @Test
    void updateByKeyWithMaterializedViewKeepsTheViewEqualToItsBody() {
        List<Result> results = call(benchmark::updateByKeyWithMaterializedView);

        assertThat(results).allSatisfy(r -> assertThat(r.updateCount()).isOne());
        assertThat(value("""
                select a from src_mv where id = 0
                """)).isEqualTo(1L);
        assertThat(viewRows()).isEqualTo(bodyRows());
    }

    @Test
    void insertPlainTableAddsOneRowPerCall() {
        List<Result> results = call(benchmark::insertPlainTable);

        assertThat(results).allSatisfy(r -> assertThat(r.updateCount()).isOne());
        assertThat(count("plain")).isEqualTo(PerRowMaintenanceBenchmark.PRELOADED_ROWS + CALLS);
    }

    @Test
    void updateByKeyPlainTableChangesOneRowPerCall() {
        List<Result> results = call(benchmark::updateByKeyPlainTable);

        assertThat(results).allSatisfy(r -> assertThat(r.updateCount()).isOne());
        assertThat(value("""
                select a from plain where id = 0
                """)).isEqualTo(1L);
    }

    @Test
    void removingInsertedRowsRestoresThePreloadedRowsAndKeepsTheViewEqualToItsBody() {
        call(benchmark::insertWithMaterializedView);
        call(benchmark::insertPlainTable);

        benchmark.removeInsertedRows();

        assertThat(count("src")).isEqualTo(PerRowMaintenanceBenchmark.PRELOADED_ROWS);
        assertThat(count("plain")).isEqualTo(PerRowMaintenanceBenchmark.PRELOADED_ROWS);
        assertThat(viewRows()).isEqualTo(bodyRows());
    }

    @Test
    void floorTableStartsWithTheSameRowsAsTheSource() {
        assertThat(rows("""
                select id, a, b from plain order by id
                """)).isEqualTo(rows("""
                select id, a, b from src order by id
                """));
    }

    private static List<Result> call(Supplier<Result> benchmarkMethod) {
        return IntStream.range(0, CALLS).mapToObj(i -> benchmarkMethod.get()).toList();
    }

    private List<List<Object>> viewRows() {
        return rows("""
                select id, a from src_mv order by id
                """);
    }

    private List<List<Object>> bodyRows() {
        return rows("""
                select id, a from src where b > 0 order by id
                """);
    }

    private long count(String table) {
        return check.execute("select id from " + table).rows().size();
    }

    private Object value(String sql) {
        return check.execute(sql).rows().get(0).get(0);
    }

    private List<List<Object>> rows(String sql) {
        return check.execute(sql).rows().stream().map(Row::values).toList();
    }
}
