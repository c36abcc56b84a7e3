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
 * Per arm, step → the exact {@code BackingRowChange}s the backing host reports (semantics §4, §7
 * MV-016), and after each step the MV equals its body.
 */
class MaterializedViewArmDeltaTest {
    private final RecordingMemoryModule module = new RecordingMemoryModule();
    private Database db;
    private Session s;

    @BeforeEach
    void open() {
        db = Derive.open(DatabaseConfig.named("deltas").withModule(module));
        s = db.openSession();
        s.execute("create table src (id integer primary key, g text, v integer, w text not null)");
        s.execute("insert into src values (1, 'a', 1, 'p'), (2, 'a', 2, 'q'), (3, 'b', 3, 'r')");
    }

    @AfterEach
    void close() {
        s.close();
        db.close();
    }

    private void create(String body, String arm) {
        s.execute("create materialized view v as " + body);
        assertThat(s.execute("select arm from materialized_views() where name = 'v'").rows().get(0).get(0)).isEqualTo(arm);
        module.clear();
    }

    /** Runs {@code sql} and returns the changes the MV's backing reported for it. */
    private List<String> step(String sql) {
        s.execute(sql);
        List<String> changes = module.take("v");
        assertThat(rows("select * from v")).as("MV equals its body after %s", sql)
                .containsExactlyInAnyOrderElementsOf(rows(body()));
        return changes;
    }

    private String body() {
        return (String) s.execute("select sql from schema() where name = 'v'").rows().get(0).get(0)
                .toString().replaceFirst("(?s)^.* maintained as ", "").replaceFirst(" with tags .*$", "");
    }

    private List<List<Object>> rows(String query) {
        List<List<Object>> out = new ArrayList<>();
        for (Row r : s.execute(query).rows()) {
            out.add(r.values());
        }
        return out;
    }

    @Nested
    class PerRowProjection {
        @BeforeEach
        void view() {
            create("select id, g, v * 10 as t from src where v > 0", "per-row projection");
        }

        @Test
        void anInsertInScopeIsOneInsert() {
            assertThat(step("insert into src values (4, 'c', 4, 's')")).containsExactly("insert [4, c, 40]");
        }

        @Test
        void anInsertOutOfScopeChangesNothing() {
            assertThat(step("insert into src values (4, 'c', 0, 's')")).isEmpty();
        }

        @Test
        void aKeyPreservingUpdateIsOneUpdate() {
            assertThat(step("update src set v = 5 where id = 1")).containsExactly("update [1, a, 10] -> [1, a, 50]");
        }

        @Test
        void aKeyMovingUpdateIsADeleteAndAnInsert() {
            assertThat(step("update src set id = 9 where id = 1")).containsExactly("delete [1, a, 10]", "insert [9, a, 10]");
        }

        @Test
        void anUpdateOfAnUnprojectedColumnChangesNothing() {
            assertThat(step("update src set w = 'z' where id = 1")).isEmpty();
        }

        @Test
        void aNoOpUpdateChangesNothing() {
            assertThat(step("update src set v = v, g = g")).isEmpty();
        }

        @Test
        void anUpdateLeavingTheScopeIsADelete() {
            assertThat(step("update src set v = 0 where id = 2")).containsExactly("delete [2, a, 20]");
        }

        @Test
        void anUpdateEnteringTheScopeIsAnInsert() {
            s.execute("insert into src values (4, 'c', 0, 's')");
            module.clear();
            assertThat(step("update src set v = 7 where id = 4")).containsExactly("insert [4, c, 70]");
        }

        @Test
        void aDeleteIsADelete() {
            assertThat(step("delete from src where id = 3")).containsExactly("delete [3, b, 30]");
        }

        @Test
        void aMultiRowInsertIsOneInsertPerRowInScope() {
            assertThat(step("insert into src values (4, 'c', 4, 's'), (5, 'c', 0, 's'), (6, 'd', 6, 's')"))
                    .containsExactly("insert [4, c, 40]", "insert [6, d, 60]");
        }

        @Test
        void aMultiRowUpdateIsOneUpdatePerChangedRow() {
            assertThat(step("update src set v = v + 1 where g = 'a'"))
                    .containsExactly("update [1, a, 10] -> [1, a, 20]", "update [2, a, 20] -> [2, a, 30]");
        }

        @Test
        void aMultiRowDeleteIsOneDeletePerRowInScope() {
            assertThat(step("delete from src where id >= 2")).containsExactly("delete [2, a, 20]", "delete [3, b, 30]");
        }

        @Test
        void aFailingStatementLeavesTheViewAsItWas() {
            assertThatThrownBy(() -> s.execute("insert into src values (4, 'c', 4, 's'), (1, 'dup', 1, 's')"))
                    .hasMessageContaining("UNIQUE constraint failed: src.id");
            assertThat(rows("select id from v")).containsExactlyInAnyOrder(List.of(1L), List.of(2L), List.of(3L));
        }
    }

    @Nested
    class PerRowProjectionWithOrderByKey {
        @BeforeEach
        void view() {
            create("select id, w, v from src order by w", "per-row projection");
        }

        @Test
        void changingTheOrderByColumnIsADeleteAndAnInsert() {
            assertThat(step("update src set w = 'z' where id = 1")).containsExactly("delete [1, p, 1]", "insert [1, z, 1]");
        }

        @Test
        void changingAnotherColumnIsAnUpdate() {
            assertThat(step("update src set v = 8 where id = 1")).containsExactly("update [1, p, 1] -> [1, p, 8]");
        }
    }

    @Nested
    class GroupRecompute {
        @BeforeEach
        void view() {
            create("select g, count(*) as n, sum(v) as s, min(v) as lo from src group by g", "group recompute");
        }

        @Test
        void anInsertIntoANewGroupIsAnInsert() {
            assertThat(step("insert into src values (4, 'c', 4, 's')")).containsExactly("insert [c, 1, 4, 4]");
        }

        @Test
        void anInsertIntoAGroupIsAnUpdateOfIt() {
            assertThat(step("insert into src values (4, 'b', 4, 's')")).containsExactly("update [b, 1, 3, 3] -> [b, 2, 7, 3]");
        }

        @Test
        void anUpdateInsideAGroupIsAnUpdate() {
            assertThat(step("update src set v = 0 where id = 2")).containsExactly("update [a, 2, 3, 1] -> [a, 2, 1, 0]");
        }

        @Test
        void anUpdateMovingARowBetweenGroupsUpdatesBoth() {
            assertThat(step("update src set g = 'b' where id = 1"))
                    .containsExactlyInAnyOrder("update [a, 2, 3, 1] -> [a, 1, 2, 2]", "update [b, 1, 3, 3] -> [b, 2, 4, 1]");
        }

        @Test
        void anUpdateEmptyingAGroupDeletesItAndCreatesTheNewOne() {
            assertThat(step("update src set g = 'c' where id = 3"))
                    .containsExactlyInAnyOrder("delete [b, 1, 3, 3]", "insert [c, 1, 3, 3]");
        }

        @Test
        void aNoOpUpdateChangesNothing() {
            assertThat(step("update src set v = v")).isEmpty();
        }

        @Test
        void anUpdateOfAnUnreadColumnChangesNothing() {
            assertThat(step("update src set w = 'z'")).isEmpty();
        }

        @Test
        void deletingTheLastRowOfAGroupDeletesIt() {
            assertThat(step("delete from src where id = 3")).containsExactly("delete [b, 1, 3, 3]");
        }

        @Test
        void aMultiRowInsertIntoOneGroupIsOneUpdate() {
            assertThat(step("insert into src values (4, 'a', 4, 's'), (5, 'a', -5, 's'), (6, 'a', 6, 's')"))
                    .containsExactly("update [a, 2, 3, 1] -> [a, 5, 8, -5]");
        }

        @Test
        void aMultiRowDeleteAcrossGroupsChangesEachOnce() {
            assertThat(step("delete from src where id in (2, 3)"))
                    .containsExactlyInAnyOrder("update [a, 2, 3, 1] -> [a, 1, 1, 1]", "delete [b, 1, 3, 3]");
        }

        @Test
        void aNullGroupKeyIsItsOwnGroup() {
            assertThat(step("insert into src values (4, null, 4, 's'), (5, null, 5, 's')"))
                    .containsExactly("insert [null, 2, 9, 4]");
            assertThat(step("update src set g = 'a' where id = 4")).containsExactlyInAnyOrder(
                    "update [null, 2, 9, 4] -> [null, 1, 5, 5]", "update [a, 2, 3, 1] -> [a, 3, 7, 1]");
        }
    }

    @Nested
    class OneToOneJoin {
        @BeforeEach
        void view() {
            s.execute("create table other (k integer primary key, x integer)");
            s.execute("insert into other values (1, 100), (3, 300)");
            module.clear();
            create("select src.id, src.v, other.x from src left join other on other.k = src.id", "1:1 join");
        }

        @Test
        void anInsertIsAnInsert() {
            assertThat(step("insert into src values (4, 'c', 4, 's')")).containsExactly("insert [4, 4, null]");
        }

        @Test
        void aLookupSideInsertIsAnUpdateOfTheMatchingRow() {
            assertThat(step("insert into other values (2, 200)")).containsExactly("update [2, 2, null] -> [2, 2, 200]");
        }

        @Test
        void aKeyPreservingUpdateIsAnUpdate() {
            assertThat(step("update src set v = 9 where id = 1")).containsExactly("update [1, 1, 100] -> [1, 9, 100]");
        }

        @Test
        void aKeyMovingUpdateIsADeleteAndAnInsert() {
            assertThat(step("update src set id = 3, v = 3 where id = 3")).isEmpty();
            assertThat(step("update src set id = 7 where id = 3"))
                    .containsExactlyInAnyOrder("delete [3, 3, 300]", "insert [7, 3, null]");
        }

        @Test
        void aNoOpUpdateChangesNothing() {
            assertThat(step("update src set v = v")).isEmpty();
        }

        @Test
        void aDeleteIsADelete() {
            assertThat(step("delete from src where id = 2")).containsExactly("delete [2, 2, null]");
        }

        @Test
        void aMultiRowStatementIsOneKeyedDiff() {
            assertThat(step("update src set v = v * 2")).containsExactlyInAnyOrder(
                    "update [2, 2, null] -> [2, 4, null]", "update [1, 1, 100] -> [1, 2, 100]",
                    "update [3, 3, 300] -> [3, 6, 300]");
        }
    }

    @Nested
    class FullRebuild {
        @BeforeEach
        void view() {
            s.execute("create table other (k integer primary key)");
            s.execute("insert into other values (5)");
            module.clear();
            create("select id, v from src where id not in (select k from other)", "full rebuild");
        }

        @Test
        void anInsertIsAnInsert() {
            assertThat(step("insert into src values (4, 'c', 4, 's')")).containsExactly("insert [4, 4]");
        }

        @Test
        void aWriteToTheOtherSourceIsTheKeyedDiff() {
            assertThat(step("insert into other values (2)")).containsExactly("delete [2, 2]");
        }

        @Test
        void aKeyPreservingUpdateIsAnUpdate() {
            assertThat(step("update src set v = 9 where id = 1")).containsExactly("update [1, 1] -> [1, 9]");
        }

        @Test
        void aKeyMovingUpdateIsADeleteAndAnInsert() {
            assertThat(step("update src set id = 7 where id = 3"))
                    .containsExactlyInAnyOrder("delete [3, 3]", "insert [7, 3]");
        }

        @Test
        void aNoOpUpdateChangesNothing() {
            assertThat(step("update src set v = v, w = w")).isEmpty();
        }

        @Test
        void aDeleteIsADelete() {
            assertThat(step("delete from src where id = 2")).containsExactly("delete [2, 2]");
        }

        @Test
        void aMultiRowStatementIsOneKeyedDiff() {
            assertThat(step("update src set v = v * 2")).containsExactlyInAnyOrder(
                    "update [1, 1] -> [1, 2]", "update [2, 2] -> [2, 4]", "update [3, 3] -> [3, 6]");
        }
    }

    @Nested
    class Cascade {
        @Test
        void aConsumerOfAPerRowViewSeesOnlyTheRealizedChanges() {
            s.execute("create materialized view base as select id, g, v from src where v > 1");
            create("select g, count(*) as n from base group by g", "group recompute");
            assertThat(step("update src set w = 'z'")).isEmpty();
            assertThat(step("update src set v = 0 where id = 2")).containsExactly("delete [a, 1]");
            assertThat(step("insert into src values (4, 'b', 4, 's'), (5, 'b', 0, 's')"))
                    .containsExactly("update [b, 1] -> [b, 2]");
        }
    }
}
