package io.derive.memory;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.Derive;
import io.derive.engine.api.Database;
import io.derive.engine.api.Row;
import io.derive.engine.api.Session;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The group arm's fast path (semantics §4.2): for a body whose aggregates are all decomposable,
 * how many source rows maintenance reads — a write to a group of any size reads a handful, a
 * retracted extreme is one index seek — with the MV equal to its body after each step. (The
 * exact changes each step makes the backing report are pinned, on every host, by the scenario
 * files {@code mv_deltas_group_fast_path.sql} and {@code mv_deltas_group_exactness.sql}.)
 */
class MaterializedViewGroupFastPathTest {
    private static final String ALL_AGGREGATES = """
            select g, count(*) as n, count(v) as c, sum(v) as s, total(v) as t, avg(v) as a, min(v) as lo, max(v) as hi
            from src group by g""";

    private final RecordingMemoryModule module = new RecordingMemoryModule();
    private Database db;
    private Session s;
    private String body;
    private long statementReads;

    @BeforeEach
    void open() {
        module.countReads("src");
        db = Derive.open(DatabaseConfig.named("fast-path").withModule(module));
        s = db.openSession();
        s.execute("create table src (id integer primary key, g text, v integer, w text not null)");
        s.execute("create index src_g_v on src (g, v)");
        s.execute("insert into src values (1, 'a', 1, 'p'), (2, 'a', 2, 'q'), (3, 'b', 3, 'r')");
    }

    @AfterEach
    void close() {
        s.close();
        db.close();
    }

    private void create(String viewBody) {
        body = viewBody;
        s.execute("create materialized view v as " + viewBody);
        assertThat(s.execute("select arm from materialized_views() where name = 'v'").rows().get(0).get(0))
                .isEqualTo("group recompute");
        module.clear();
    }

    /**
     * Runs {@code sql} and returns the changes the MV's backing reported for it; {@link #rowsRead}
     * then tells the source rows it read (the statement's own reads included, the check's not).
     */
    private List<String> step(String sql) {
        module.takeRowsRead("src");
        s.execute(sql);
        statementReads = module.takeRowsRead("src");
        List<String> changes = module.take("v");
        assertThat(rows("select * from v")).as("MV equals its body after %s", sql)
                .containsExactlyInAnyOrderElementsOf(rows(body));
        return changes;
    }

    /** The source rows the last {@link #step} read. */
    private long rowsRead() {
        return statementReads;
    }

    private List<List<Object>> rows(String query) {
        List<List<Object>> out = new ArrayList<>();
        for (Row r : s.execute(query).rows()) {
            out.add(r.values());
        }
        return out;
    }

    @Nested
    class SourceRowsRead {
        private static final int GROUP_ROWS = 2_000;

        @BeforeEach
        void twoLargeGroups() {
            s.execute("delete from src");
            s.execute("""
                    insert into src
                    select value, case when value % 2 = 0 then 'even' else 'odd' end, value, 'w'
                    from generate_series(1, ?)""", 2 * GROUP_ROWS);
        }

        @Test
        void creatingTheViewDerivesEveryGroupOnceSoItsFirstWritesAreDeltas() {
            create(ALL_AGGREGATES);
            step("update src set v = v + 2 where id = 1000");
            assertThat(rowsRead()).isLessThanOrEqualTo(3);
            step("update src set v = v + 2 where id = 1001");
            assertThat(rowsRead()).isLessThanOrEqualTo(3);
        }

        @Test
        void aGroupTheFastPathDoesNotKnowIsDerivedFromItsRowsOnce() {
            create(ALL_AGGREGATES);
            s.execute("insert into src select 10000 + value, 'new', value, 'w' from generate_series(1, 500)");
            step("update src set v = 0 where id = 10001");
            assertThat(rowsRead()).as("a group first met in a multi-row statement is derived at its end").isLessThanOrEqualTo(3);
            step("insert into src values (20000, 'newer', 1, 'w')");
            assertThat(rowsRead()).as("a new group").isLessThanOrEqualTo(3);
        }

        @Test
        void aSingleRowWriteReadsAHandfulOfSourceRowsWhateverTheGroupSize() {
            create(ALL_AGGREGATES);

            assertThat(step("update src set v = 1001 where id = 1000")).hasSize(1);
            assertThat(rowsRead()).as("key-preserving update").isLessThanOrEqualTo(3);
            assertThat(step("update src set g = 'odd' where id = 1000")).hasSize(2);
            assertThat(rowsRead()).as("group-moving update").isLessThanOrEqualTo(3);
            assertThat(step("insert into src values (100000, 'even', 7, 'w')")).hasSize(1);
            assertThat(rowsRead()).as("insert").isLessThanOrEqualTo(3);
            assertThat(step("delete from src where id = 100000")).hasSize(1);
            assertThat(rowsRead()).as("delete").isLessThanOrEqualTo(3);
        }

        @Test
        void aRetractedMinimumOrMaximumIsOneIndexSeek() {
            create(ALL_AGGREGATES);

            assertThat(step("update src set v = 100000 where id = 2")).hasSize(1);
            assertThat(rowsRead()).as("minimum moved above the maximum").isLessThanOrEqualTo(4);
            assertThat(step("delete from src where id = 2")).hasSize(1);
            assertThat(rowsRead()).as("maximum deleted").isLessThanOrEqualTo(4);
            assertThat(rows("select lo, hi from v where g = 'even'")).containsExactly(List.of(4L, 2L * GROUP_ROWS));
        }

        @Test
        void withoutAServingIndexARetractedExtremeIsFoundByReadingTheGroupAgain() {
            s.execute("drop index src_g_v");
            create(ALL_AGGREGATES);

            step("update src set v = v + 1 where id = 1000");
            assertThat(rowsRead()).as("nothing retracted").isLessThanOrEqualTo(3);
            step("update src set v = 100000 where id = 2");
            assertThat(rowsRead()).as("minimum retracted").isGreaterThanOrEqualTo(GROUP_ROWS);
        }

        @Test
        void aBodyWithANonDecomposableAggregateStillRecomputesTheGroup() {
            create("select g, count(distinct v) as d from src group by g");
            step("update src set v = 1001 where id = 1000");
            assertThat(rowsRead()).isGreaterThanOrEqualTo(GROUP_ROWS);
        }
    }
}
