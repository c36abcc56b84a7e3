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
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The group arm's fast path (semantics §4.2): for a body whose aggregates are all decomposable,
 * step → the exact {@code BackingRowChange}s of the backing, the MV equal to its body after each
 * step, and how many source rows maintenance read — a write to a group of any size reads a
 * handful, a retracted extreme is one index seek.
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
    class Deltas {
        @BeforeEach
        void view() {
            create(ALL_AGGREGATES);
        }

        @Test
        void anInsertIntoAGroupIsOneUpdate() {
            assertThat(step("insert into src values (4, 'a', 5, 's')"))
                    .containsExactly("update [a, 2, 2, 3, 3.0, 1.5, 1, 2] -> [a, 3, 3, 8, 8.0, 2.6666666666666665, 1, 5]");
        }

        @Test
        void anInsertIntoANewGroupIsAnInsert() {
            assertThat(step("insert into src values (4, 'c', 4, 's')")).containsExactly("insert [c, 1, 1, 4, 4.0, 4.0, 4, 4]");
        }

        @Test
        void aKeyPreservingUpdateIsOneUpdate() {
            assertThat(step("update src set v = 0 where id = 2"))
                    .containsExactly("update [a, 2, 2, 3, 3.0, 1.5, 1, 2] -> [a, 2, 2, 1, 1.0, 0.5, 0, 1]");
        }

        @Test
        void aGroupMovingUpdateUpdatesBothGroups() {
            assertThat(step("update src set g = 'b' where id = 1")).containsExactlyInAnyOrder(
                    "update [a, 2, 2, 3, 3.0, 1.5, 1, 2] -> [a, 1, 1, 2, 2.0, 2.0, 2, 2]",
                    "update [b, 1, 1, 3, 3.0, 3.0, 3, 3] -> [b, 2, 2, 4, 4.0, 2.0, 1, 3]");
        }

        @Test
        void aDeleteIsAnUpdateOfItsGroup() {
            assertThat(step("delete from src where id = 1"))
                    .containsExactly("update [a, 2, 2, 3, 3.0, 1.5, 1, 2] -> [a, 1, 1, 2, 2.0, 2.0, 2, 2]");
        }

        @Test
        void aGroupEmptiedIsDeletedAndRefilledIsInsertedAgain() {
            assertThat(step("update src set g = 'c' where id = 3"))
                    .containsExactlyInAnyOrder("delete [b, 1, 1, 3, 3.0, 3.0, 3, 3]", "insert [c, 1, 1, 3, 3.0, 3.0, 3, 3]");
            assertThat(step("insert into src values (5, 'b', 7, 's')")).containsExactly("insert [b, 1, 1, 7, 7.0, 7.0, 7, 7]");
            assertThat(step("delete from src where id = 5")).containsExactly("delete [b, 1, 1, 7, 7.0, 7.0, 7, 7]");
        }

        @Test
        void aNoOpUpdateChangesNothing() {
            assertThat(step("update src set v = v, g = g, w = 'z'")).isEmpty();
        }

        @Test
        void aMultiRowStatementIsOneChangePerGroup() {
            assertThat(step("insert into src values (4, 'a', 4, 's'), (5, 'a', -5, 's'), (6, 'b', 6, 's')"))
                    .containsExactlyInAnyOrder(
                            "update [a, 2, 2, 3, 3.0, 1.5, 1, 2] -> [a, 4, 4, 2, 2.0, 0.5, -5, 4]",
                            "update [b, 1, 1, 3, 3.0, 3.0, 3, 3] -> [b, 2, 2, 9, 9.0, 4.5, 3, 6]");
            assertThat(step("delete from src where v < 3"))
                    .containsExactly("update [a, 4, 4, 2, 2.0, 0.5, -5, 4] -> [a, 1, 1, 4, 4.0, 4.0, 4, 4]");
        }

        @Test
        void nullArgumentsCountAsRowsOnlyAndASumOfNoValueIsNullWhileTotalIsZero() {
            assertThat(step("update src set v = null where id = 3"))
                    .containsExactly("update [b, 1, 1, 3, 3.0, 3.0, 3, 3] -> [b, 1, 0, null, 0.0, null, null, null]");
            assertThat(step("insert into src values (4, 'b', null, 's')"))
                    .containsExactly("update [b, 1, 0, null, 0.0, null, null, null] -> [b, 2, 0, null, 0.0, null, null, null]");
            assertThat(step("update src set v = 6 where id = 4"))
                    .containsExactly("update [b, 2, 0, null, 0.0, null, null, null] -> [b, 2, 1, 6, 6.0, 6.0, 6, 6]");
        }

        @Test
        void retractingTheMinimumFindsTheNextOne() {
            assertThat(step("update src set v = 9 where id = 1"))
                    .containsExactly("update [a, 2, 2, 3, 3.0, 1.5, 1, 2] -> [a, 2, 2, 11, 11.0, 5.5, 2, 9]");
        }

        @Test
        void retractingTheMaximumFindsTheNextOne() {
            assertThat(step("delete from src where id = 2"))
                    .containsExactly("update [a, 2, 2, 3, 3.0, 1.5, 1, 2] -> [a, 1, 1, 1, 1.0, 1.0, 1, 1]");
        }

        @Test
        void aNewValueBeyondARetractedExtremeReplacesIt() {
            assertThat(step("update src set v = -4 where id = 1"))
                    .containsExactly("update [a, 2, 2, 3, 3.0, 1.5, 1, 2] -> [a, 2, 2, -2, -2.0, -1.0, -4, 2]");
        }

        @Test
        void aFailingStatementLeavesTheGroupStatesAsTheyWere() {
            assertThatThrownBy(() -> s.execute("insert into src values (4, 'a', 100, 's'), (1, 'a', 100, 's')"))
                    .hasMessageContaining("UNIQUE constraint failed: src.id");
            assertThat(step("insert into src values (5, 'a', 0, 's')"))
                    .containsExactly("update [a, 2, 2, 3, 3.0, 1.5, 1, 2] -> [a, 3, 3, 3, 3.0, 1.0, 0, 2]");
        }

        @Test
        void rollingBackToASavepointRestoresTheGroupStates() {
            s.execute("begin");
            s.execute("insert into src values (4, 'a', 10, 's')");
            s.execute("savepoint s1");
            s.execute("delete from src where id in (1, 2)");
            s.execute("insert into src values (5, 'a', -1, 's')");
            s.execute("rollback to s1");
            module.clear();
            assertThat(step("insert into src values (6, 'a', 20, 's')"))
                    .containsExactly("update [a, 3, 3, 13, 13.0, 4.333333333333333, 1, 10] -> [a, 4, 4, 33, 33.0, 8.25, 1, 20]");
            s.execute("commit");
        }

        @Test
        void rollingBackTheTransactionRestoresTheGroupStates() {
            s.execute("begin");
            s.execute("delete from src where id = 1");
            s.execute("update src set g = 'a' where id = 3");
            s.execute("rollback");
            module.clear();
            assertThat(step("update src set v = 0 where id = 2"))
                    .containsExactly("update [a, 2, 2, 3, 3.0, 1.5, 1, 2] -> [a, 2, 2, 1, 1.0, 0.5, 0, 1]");
        }
    }

    @Nested
    class ExactnessWhereTheAlgebraStops {
        @Test
        void anIntegerSumBeyond64BitsFailsTheStatementAsAFreshEvaluationDoes() {
            create("select g, sum(v) as s from src group by g");
            s.execute("insert into src values (4, 'c', 9223372036854775807, 's')");
            assertThatThrownBy(() -> s.execute("insert into src values (5, 'c', 1, 's')")).hasMessageContaining("integer overflow");
            assertThat(rows("select s from v where g = 'c'")).containsExactly(List.of(9223372036854775807L));
        }

        @Test
        void anIntegerSumWhosePositiveValuesPass64BitsIsRecomputedInScanOrder() {
            create("select g, sum(v) as s from src group by g");
            s.execute("insert into src values (4, 'c', 9223372036854775807, 's'), (5, 'c', -10, 's')");
            module.clear();
            assertThat(step("insert into src values (6, 'c', 5, 's')"))
                    .containsExactly("update [c, 9223372036854775797] -> [c, 9223372036854775802]");
        }

        @Test
        void aRealSumIsRecomputedNotRetracted() {
            s.execute("create table r (id integer primary key, g text, x real)");
            s.execute("insert into r values (1, 'a', 0.1), (2, 'a', 0.2), (3, 'a', 1e20)");
            body = "select g, sum(x) as s, avg(x) as a from r group by g";
            s.execute("create materialized view v as " + body);
            module.clear();
            // 1e20 + 0.1 + 0.2 - 1e20 would be 0.0 by deltas; the body gives 0.1 + 0.2.
            assertThat(step("delete from r where id = 3")).containsExactly(
                    "update [a, 1.0E20, 3.333333333333333E19] -> [a, 0.30000000000000004, 0.15000000000000002]");
            assertThat(step("delete from r where id = 2")).containsExactly(
                    "update [a, 0.30000000000000004, 0.15000000000000002] -> [a, 0.1, 0.1]");
        }

        @Test
        void theFirstOfEqualExtremesInKeyOrderWinsAsInTheBody() {
            s.execute("create index src_g_w on src (g, w collate nocase)");
            create("select g, min(w collate nocase) as lo, max(w collate nocase) as hi from src group by g");
            assertThat(step("insert into src values (9, 'a', 0, 'P')")).isEmpty();
            assertThat(step("update src set id = 0 where id = 9")).containsExactly("update [a, p, q] -> [a, P, q]");
            assertThat(step("update src set w = 'Q' where id = 0")).containsExactly("update [a, P, q] -> [a, p, Q]");
        }

        @Test
        void aHavingThatTurnsFalseDeletesTheGroupRow() {
            create("select g, count(*) as n, max(v) as hi from src group by g having count(*) > 1");
            assertThat(step("delete from src where id = 1")).containsExactly("delete [a, 2, 2]");
            assertThat(step("insert into src values (4, 'b', 0, 's')")).containsExactly("insert [b, 2, 3]");
        }
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
