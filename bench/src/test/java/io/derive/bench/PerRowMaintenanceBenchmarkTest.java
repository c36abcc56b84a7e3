package io.derive.bench;

import io.derive.engine.api.Result;
import io.derive.engine.api.Row;
import io.derive.engine.api.Session;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;
import org.openjdk.jmh.runner.options.TimeValue;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs the benchmark methods directly, with their untimed steps around them as JMH runs them, to
 * check that each measures the work it claims to.
 */
class PerRowMaintenanceBenchmarkTest {
    private static final int CALLS = 5;
    private static final int ROWS = PerRowMaintenanceBenchmark.PRELOADED_ROWS;

    private final PerRowMaintenanceBenchmark benchmark = new PerRowMaintenanceBenchmark();
    private PerRowMaintenanceBenchmark.Tables trial;
    private Session check;

    @AfterEach
    void closeTrial() {
        check.close();
        trial.close();
    }

    @Test
    void insertOnTheMeasurePutsBackTheFreedRowAndKeepsTheViewEqualToItsBody() throws Exception {
        PerRowMaintenanceBenchmark.KeyFree row = open(new PerRowMaintenanceBenchmark.KeyFree(), "measure");

        List<Result> results = call(() -> {
            row.removeRow();
            return benchmark.insert(row);
        });

        assertThat(results).allSatisfy(r -> assertThat(r.updateCount()).isOne());
        assertThat(count("src_mv")).isEqualTo(ROWS);
        assertThat(viewRows()).isEqualTo(bodyRows());
    }

    @Test
    void insertOnTheFloorPutsBackTheFreedRow() throws Exception {
        PerRowMaintenanceBenchmark.KeyFree row = open(new PerRowMaintenanceBenchmark.KeyFree(), "floor");

        List<Result> results = call(() -> {
            row.removeRow();
            return benchmark.insert(row);
        });

        assertThat(results).allSatisfy(r -> assertThat(r.updateCount()).isOne());
        assertThat(count("plain")).isEqualTo(ROWS);
    }

    @Test
    void updateByKeyOnTheMeasureKeepsTheViewEqualToItsBody() throws Exception {
        PerRowMaintenanceBenchmark.Tables tables = open(new PerRowMaintenanceBenchmark.Tables(), "measure");

        List<Result> results = call(() -> benchmark.updateByKey(tables));

        assertThat(results).allSatisfy(r -> assertThat(r.updateCount()).isOne());
        assertThat(value("""
                select a from src_mv where id = 0
                """)).isEqualTo(1L);
        assertThat(viewRows()).isEqualTo(bodyRows());
    }

    @Test
    void updateByKeyOnTheFloorChangesOneRowPerCall() throws Exception {
        PerRowMaintenanceBenchmark.Tables tables = open(new PerRowMaintenanceBenchmark.Tables(), "floor");

        List<Result> results = call(() -> benchmark.updateByKey(tables));

        assertThat(results).allSatisfy(r -> assertThat(r.updateCount()).isOne());
        assertThat(value("""
                select a from plain where id = 0
                """)).isEqualTo(1L);
    }

    @Test
    void deleteByKeyOnTheMeasureRemovesOneRowAndKeepsTheViewEqualToItsBody() throws Exception {
        PerRowMaintenanceBenchmark.RowToDelete row = open(new PerRowMaintenanceBenchmark.RowToDelete(), "measure");
        row.chooseRow();

        Result result = benchmark.deleteByKey(row);

        assertThat(result.updateCount()).isOne();
        assertThat(count("src_mv")).isEqualTo(ROWS - 1);
        assertThat(viewRows()).isEqualTo(bodyRows());
    }

    @Test
    void restoringTheDeletedSourceRowKeepsTheViewEqualToItsBody() throws Exception {
        PerRowMaintenanceBenchmark.RowToDelete row = open(new PerRowMaintenanceBenchmark.RowToDelete(), "measure");

        call(() -> {
            row.chooseRow();
            Result result = benchmark.deleteByKey(row);
            row.restoreRow();
            return result;
        });

        assertThat(count("src_mv")).isEqualTo(ROWS);
        assertThat(viewRows()).isEqualTo(bodyRows());
    }

    @Test
    void deleteByKeyOnTheFloorRemovesOneRowThatTheTeardownPutsBack() throws Exception {
        PerRowMaintenanceBenchmark.RowToDelete row = open(new PerRowMaintenanceBenchmark.RowToDelete(), "floor");
        row.chooseRow();

        assertThat(benchmark.deleteByKey(row).updateCount()).isOne();
        assertThat(count("plain")).isEqualTo(ROWS - 1);
        row.restoreRow();
        assertThat(count("plain")).isEqualTo(ROWS);
    }

    @Test
    void alternatingIterationsWriteTheMeasureFirstInWarmUpAndAgainInMeasurement() throws Exception {
        PerRowMaintenanceBenchmark.Tables tables = open(new PerRowMaintenanceBenchmark.Tables(), "alternating");
        List<String> written = new ArrayList<>(List.of(side(tables)));

        for (IterationType type : List.of(IterationType.WARMUP, IterationType.WARMUP,
                IterationType.MEASUREMENT, IterationType.MEASUREMENT, IterationType.MEASUREMENT)) {
            tables.chooseTable(iteration(type));
            written.add(side(tables));
        }

        assertThat(written).containsExactly("measure", "floor", "measure", "measure", "floor", "measure");
    }

    private static String side(PerRowMaintenanceBenchmark.Tables tables) {
        return tables.target == tables.source ? "measure" : tables.target == tables.plain ? "floor" : "neither";
    }

    @Test
    void writesVisitThePreloadedKeysInOrderRoundAndRound() throws Exception {
        PerRowMaintenanceBenchmark.Tables tables = open(new PerRowMaintenanceBenchmark.Tables(), "alternating");

        List<Long> keys = IntStream.range(0, ROWS + 2).mapToObj(i -> tables.nextKey()).toList();

        assertThat(keys.subList(0, 2)).containsExactly(0L, 1L);
        assertThat(keys.subList(ROWS - 1, ROWS + 2)).containsExactly((long) ROWS - 1, 0L, 1L);
    }

    @Test
    void floorTableStartsWithTheSameRowsAsTheSource() throws Exception {
        open(new PerRowMaintenanceBenchmark.Tables(), "alternating");

        assertThat(rows("""
                select id, a, b from plain order by id
                """)).isEqualTo(rows("""
                select id, a, b from src order by id
                """));
    }

    /** Sets the trial up as JMH would before its first invocation, writing to {@code side}. */
    private <T extends PerRowMaintenanceBenchmark.Tables> T open(T state, String side) throws Exception {
        state.side = side;
        state.open();
        state.chooseTable(iteration(IterationType.WARMUP));
        trial = state;
        check = state.database.openSession();
        return state;
    }

    private static IterationParams iteration(IterationType type) {
        return new IterationParams(type, 1, TimeValue.seconds(1), 1);
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
