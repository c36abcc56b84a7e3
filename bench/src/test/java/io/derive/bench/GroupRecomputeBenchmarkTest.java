package io.derive.bench;

import io.derive.engine.api.Row;
import io.derive.engine.api.Session;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs the group-by benchmark directly on a small source, with and without the group index, to
 * check that its view stays equal to its body and that every other update retracts a minimum.
 */
class GroupRecomputeBenchmarkTest {
    private static final int ROWS = 1_000;
    private static final int PER_GROUP = ROWS / GroupRecomputeBenchmark.GROUPS;
    /** Enough updates to retract each group's minimum more times than the group has rows. */
    private static final int CALLS = 2 * GroupRecomputeBenchmark.GROUPS * (PER_GROUP + 2);

    @ParameterizedTest(name = "indexed = {0}")
    @ValueSource(booleans = {true, false})
    void updatesKeepTheViewEqualToItsBody(boolean indexed) throws Exception {
        GroupRecomputeBenchmark benchmark = open(indexed);
        try (Session check = benchmark.database.openSession()) {
            IntStream.range(0, CALLS).forEach(i -> assertThat(benchmark.updateGroupedRow().updateCount()).isOne());

            assertThat(rows(check, "select * from group_totals order by g"))
                    .isEqualTo(rows(check, GroupRecomputeBenchmark.VIEW_BODY + " order by g"));
        } finally {
            benchmark.closeDatabase();
        }
    }

    @ParameterizedTest(name = "indexed = {0}")
    @ValueSource(booleans = {true, false})
    void everyOtherUpdateRaisesTheGroupMinimumAndTheMaximumWithIt(boolean indexed) throws Exception {
        GroupRecomputeBenchmark benchmark = open(indexed);
        try (Session check = benchmark.database.openSession()) {
            List<Object> before = rows(check, "select low, high from group_totals where g = 0").get(0);

            benchmark.updateGroupedRow();

            assertThat(before).containsExactly(0L, 2L * (PER_GROUP - 1));
            assertThat(rows(check, "select low, high from group_totals where g = 0").get(0))
                    .containsExactly(2L, 2L * PER_GROUP);
        } finally {
            benchmark.closeDatabase();
        }
    }

    @ParameterizedTest(name = "indexed = {0}")
    @ValueSource(booleans = {true, false})
    void theOtherUpdatesLeaveTheGroupExtremesAlone(boolean indexed) throws Exception {
        GroupRecomputeBenchmark benchmark = open(indexed);
        try (Session check = benchmark.database.openSession()) {
            benchmark.updateGroupedRow();
            List<Object> before = rows(check, "select n, total, low, high from group_totals where g = 0").get(0);

            benchmark.updateGroupedRow();

            List<Object> after = rows(check, "select n, total, low, high from group_totals where g = 0").get(0);
            assertThat(after).isEqualTo(List.of(before.get(0), (Long) before.get(1) + 1, before.get(2), before.get(3)));
        } finally {
            benchmark.closeDatabase();
        }
    }

    private static GroupRecomputeBenchmark open(boolean indexed) throws Exception {
        GroupRecomputeBenchmark benchmark = new GroupRecomputeBenchmark();
        benchmark.rows = ROWS;
        benchmark.indexed = indexed;
        benchmark.openDatabase();
        return benchmark;
    }

    private static List<List<Object>> rows(Session session, String sql) {
        return ComparableRows.of(session.execute(sql).rows().stream().map(Row::values).toList());
    }
}
