package io.derive.engine.contract;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The group arm's fast path on every host (semantics §4.2): retracted extremes found through an
 * index walked forwards or backwards (the host's descending index scan), ties under a collation
 * settled as the body's scan settles them, and group states following savepoint and transaction
 * rollback. After every step the MV equals its body.
 */
public abstract class MaterializedViewGroupFastPathContract extends HostContractTest {
    private static final String BODY = """
            select g, count(*) as n, sum(v) as s, min(v) as lo, max(v) as hi, min(w) as wlo, max(w) as whi
            from src group by g""";

    @BeforeEach
    void source() {
        script("""
                create table src (id integer primary key, g text, v integer, w text collate nocase);
                create index src_g_v on src (g, v desc);
                create index src_g_w on src (g, w);
                insert into src values (1, 'a', 1, 'p'), (2, 'a', 5, 'q'), (3, 'a', 3, 'P'), (4, 'b', 2, 'Q'), (5, null, 4, 'r');
                """);
        script("create materialized view m as " + BODY);
        // An extreme put in and retracted again: every group's state then has been sought once.
        script("""
                insert into src select 100 + min(id), g, 0, 'z' from src group by g;
                delete from src where id >= 100;
                """);
    }

    private void assertEqualsBody() {
        assertThat(rows("select * from m")).containsExactlyInAnyOrderElementsOf(rows(BODY));
    }

    private List<Object> group(String g) {
        return rows("select n, s, lo, hi, wlo, whi from m where g is ?", g).get(0);
    }

    @Test
    void retractingTheMinimumAndTheMaximumSeeksTheNextOnes() {
        script("update src set v = 10 where id = 1");
        assertThat(group("a")).containsExactly(3L, 18L, 3L, 10L, "p", "q");
        script("delete from src where id = 1");
        assertThat(group("a")).containsExactly(2L, 8L, 3L, 5L, "P", "q");
        assertEqualsBody();
    }

    @Test
    void theFirstOfEqualExtremesInKeyOrderIsKept() {
        script("delete from src where id = 2");
        assertThat(group("a")).containsExactly(2L, 4L, 1L, 3L, "p", "p");
        script("update src set id = 0 where id = 3");
        assertThat(group("a")).containsExactly(2L, 4L, 1L, 3L, "P", "P");
        assertEqualsBody();
    }

    @Test
    void aNullGroupAndNullArgumentsAreKeptExactly() {
        script("update src set v = null where id = 5");
        assertThat(group(null)).containsExactly(1L, null, null, null, "r", "r");
        script("insert into src values (6, null, -1, 'a')");
        assertThat(group(null)).containsExactly(2L, -1L, -1L, -1L, "a", "r");
        assertEqualsBody();
    }

    /** Each statement publishes from the state the last one left, without reading the view's row. */
    @Test
    void aGroupEmptiedAndRefilledInOneTransactionCommitsItsLastRow() {
        script("""
                begin;
                delete from src where g = 'b';
                insert into src values (7, 'b', 9, 'x');
                insert into src values (8, 'c', 1, 'y');
                delete from src where id = 8;
                commit;
                """);
        assertThat(group("b")).containsExactly(1L, 9L, 9L, 9L, "x", "x");
        assertThat(rows("select * from m where g = 'c'")).isEmpty();
        assertEqualsBody();
    }

    @Test
    void groupStatesFollowSavepointAndTransactionRollback() {
        script("""
                begin;
                update src set v = 7 where id = 4;
                savepoint s1;
                delete from src where g = 'a';
                insert into src values (7, 'a', 9, 's');
                rollback to s1;
                """);
        assertThat(group("a")).containsExactly(3L, 9L, 1L, 5L, "p", "q");
        assertThat(group("b")).containsExactly(1L, 7L, 7L, 7L, "Q", "Q");
        script("rollback");
        script("update src set v = v + 1 where g in ('a', 'b')");
        assertThat(group("a")).containsExactly(3L, 12L, 2L, 6L, "p", "q");
        assertThat(group("b")).containsExactly(1L, 3L, 3L, 3L, "Q", "Q");
        assertEqualsBody();
    }
}
