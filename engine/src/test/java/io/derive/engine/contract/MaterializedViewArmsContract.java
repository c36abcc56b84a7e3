package io.derive.engine.contract;

import io.derive.engine.api.DeriveException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The maintenance arms beyond per-row projection: which one a body gets, and that each keeps the MV equal to its body. */
public abstract class MaterializedViewArmsContract extends HostContractTest {

    @BeforeEach
    void sources() {
        script("""
                create table emp (id integer primary key, dept text, salary integer, boss integer);
                create table dept (name text primary key, floor integer);
                insert into dept values ('eng', 1), ('ops', 2);
                insert into emp values (1, 'eng', 100, null), (2, 'eng', 80, 1), (3, 'ops', 70, 1);
                """);
    }

    private String arm(String name) {
        return (String) rows("select arm from materialized_views() where name = ?", name).get(0).get(0);
    }

    private void assertEqualsBody(String view, String body) {
        assertThat(rows("select * from " + view)).containsExactlyInAnyOrderElementsOf(rows(body));
    }

    @Test
    void eachBodyShapeGetsItsArm() {
        script("""
                create materialized view p as select id, salary * 2 as double_pay from emp where dept = 'eng';
                create materialized view g as select dept, count(*) as n, sum(salary) as total from emp group by dept;
                create materialized view j as select e.id, d.floor from emp e join dept d on d.name = e.dept;
                create materialized view u as select dept from emp union select name from dept;
                create materialized view s as select count(*) as n from emp;
                """);
        assertThat(arm("p")).isEqualTo("per-row projection");
        assertThat(arm("g")).isEqualTo("group recompute");
        assertThat(arm("j")).isEqualTo("1:1 join");
        assertThat(arm("u")).isEqualTo("full rebuild");
        assertThat(arm("s")).isEqualTo("full rebuild");
    }

    @Test
    void explainShowsTheArmOfABody() {
        assertThat(rows("explain create materialized view g as select dept, max(salary) as top from emp group by dept"))
                .last().isEqualTo(row("maintenance: group recompute"));
    }

    /** The replaced rows leave the view before the rows that replace them arrive at their keys. */
    @Test
    void aPerRowViewFollowsRowsThatReplaceOthersByKeyAndByUniqueValue() {
        String body = "select id, code, salary from staff";
        script("""
                create table staff (id integer primary key, code text unique, salary integer);
                insert into staff values (1, 'a', 10), (2, 'b', 20), (3, 'c', 30);
                """);
        session.execute("create materialized view p as " + body);
        script("""
                update or replace staff set id = 2 where id = 1;
                insert or replace into staff values (4, 'c', 40);
                begin;
                update or replace staff set id = 3, code = 'b' where id = 4;
                insert or replace into staff values (3, 'z', 0);
                commit;
                """);
        assertThat(rows("select * from p order by id")).containsExactly(row(2L, "a", 10L), row(3L, "z", 0L));
        assertEqualsBody("p", body);
    }

    @Test
    void groupRecomputeFollowsInsertsUpdatesMovesAndEmptiedGroups() {
        String body = "select dept, count(*) as n, sum(salary) as total, avg(salary) as mean, min(salary) as low,"
                + " max(salary) as high from emp group by dept having count(*) > 0";
        session.execute("create materialized view g as " + body);
        session.execute("insert into emp values (4, 'ops', 90, 3), (5, 'sales', 10, 1)");
        assertEqualsBody("g", body);
        session.execute("update emp set salary = 50 where id = 1");
        assertEqualsBody("g", body);
        session.execute("update emp set dept = 'sales' where dept = 'ops'");
        assertEqualsBody("g", body);
        session.execute("delete from emp where dept = 'sales'");
        assertThat(rows("select dept from g")).containsExactly(row("eng"));
        assertEqualsBody("g", body);
    }

    @Test
    void aHavingClauseAddsAndRemovesGroups() {
        String body = "select dept, count(*) as n from emp group by dept having count(*) >= 2";
        session.execute("create materialized view big as " + body);
        assertThat(rows("select dept from big")).containsExactly(row("eng"));
        session.execute("insert into emp values (4, 'ops', 1, null)");
        assertThat(rows("select dept from big order by dept")).containsExactly(row("eng"), row("ops"));
        session.execute("delete from emp where id = 1");
        assertThat(rows("select dept from big")).containsExactly(row("ops"));
    }

    @Test
    void aNullGroupKeyIsAGroup() {
        String body = "select boss, count(*) as n from emp group by boss";
        session.execute("create materialized view by_boss as " + body);
        session.execute("insert into emp values (4, 'x', 1, null)");
        assertThat(rows("select n from by_boss where boss is null")).containsExactly(row(2L));
        assertEqualsBody("by_boss", body);
    }

    @Test
    void aOneToOneJoinFollowsWritesToTheDrivingAndTheLookupTable() {
        String body = "select e.id, e.dept, d.floor from emp e left join dept d on d.name = e.dept";
        session.execute("create materialized view placed as " + body);
        assertThat(arm("placed")).isEqualTo("1:1 join");
        session.execute("insert into emp values (4, 'sales', 5, null)");
        assertThat(rows("select floor from placed where id = 4")).containsExactly(row((Object) null));
        session.execute("insert into dept values ('sales', 3)");
        assertThat(rows("select floor from placed where id = 4")).containsExactly(row(3L));
        session.execute("update dept set floor = 9 where name = 'eng'");
        session.execute("update emp set dept = 'ops' where id = 2");
        session.execute("delete from dept where name = 'ops'");
        assertEqualsBody("placed", body);
        session.execute("delete from emp where id = 1");
        assertEqualsBody("placed", body);
    }

    @Test
    void anInnerOneToOneJoinDropsRowsWithoutALookupRow() {
        String body = "select e.id, d.floor from emp e join dept d on d.name = e.dept where d.floor < 5";
        session.execute("create materialized view low as " + body);
        session.execute("update dept set floor = 7 where name = 'ops'");
        assertThat(rows("select id from low order by id")).containsExactly(row(1L), row(2L));
        session.execute("insert into emp values (4, 'nowhere', 1, null)");
        assertEqualsBody("low", body);
    }

    @Test
    void aLateralFanOutReFansOnlyTheChangedBaseRows() {
        String body = "select e.id, s.value as step, e.salary from emp e cross join lateral generate_series(1, e.id) s";
        session.execute("create materialized view fan as " + body);
        assertThat(arm("fan")).isEqualTo("lateral fan-out");
        assertThat(rows("select count(*) from fan")).containsExactly(row(6L));
        session.execute("update emp set id = 5 where id = 2");
        session.execute("update emp set salary = 1 where id = 3");
        session.execute("insert into emp values (4, 'x', 9, null)");
        session.execute("delete from emp where id = 1");
        assertEqualsBody("fan", body);
        assertThat(rows("select count(*) from fan")).containsExactly(row(12L));
    }

    @Test
    void theFullRebuildFloorFollowsWritesToEverySource() {
        String body = "select e.id, d.name, d.floor from emp e, dept d where d.floor > e.id";
        session.execute("create materialized view pairs as " + body);
        assertThat(arm("pairs")).isEqualTo("full rebuild");
        session.execute("insert into emp values (4, 'sales', 5, null)");
        session.execute("update dept set floor = 9 where name = 'eng'");
        session.execute("insert into dept values ('sales', 3)");
        assertEqualsBody("pairs", body);
    }

    @Test
    void aViewOverAViewIsMaintainedAfterItsProducerInTheSameStatement() {
        script("""
                create materialized view eng as select id, salary from emp where dept = 'eng';
                create materialized view eng_total as select count(*) as n, sum(salary) as total from eng;
                create materialized view rich as select id from eng where salary >= 90;
                """);
        session.execute("insert into emp values (4, 'eng', 95, 1), (5, 'ops', 500, 1)");
        assertThat(rows("select n, total from eng_total")).containsExactly(row(3L, 275L));
        assertThat(rows("select id from rich order by id")).containsExactly(row(1L), row(4L));
        session.execute("update emp set dept = 'ops' where id = 1");
        assertThat(rows("select n, total from eng_total")).containsExactly(row(2L, 175L));
        assertThat(rows("select id from rich")).containsExactly(row(4L));
    }

    @Test
    void aFailingStatementLeavesDeferredMaintenanceUndone() {
        session.execute("create materialized view g as select dept, count(*) as n from emp group by dept");
        assertThatThrownBy(() -> session.execute("insert into emp values (6, 'eng', 1, null), (1, 'dup', 1, null)"))
                .isInstanceOf(DeriveException.class);
        assertThat(rows("select n from g where dept = 'eng'")).containsExactly(row(2L));
    }

    @Test
    void rollbackUndoesDeferredMaintenance() {
        session.execute("create materialized view g as select dept, count(*) as n from emp group by dept");
        session.begin();
        session.execute("delete from emp where dept = 'eng'");
        assertThat(rows("select dept from g")).containsExactly(row("ops"));
        session.rollback();
        assertThat(rows("select dept, n from g order by dept")).containsExactly(row("eng", 2L), row("ops", 1L));
    }

    @Test
    void orFailKeepsTheEarlierRowsAndTheirMaintenance() {
        session.execute("create materialized view g as select dept, count(*) as n from emp group by dept");
        assertThatThrownBy(() -> session.execute("insert or fail into emp values (7, 'ops', 1, null), (1, 'x', 1, null)"))
                .hasMessageContaining("UNIQUE constraint failed");
        assertThat(rows("select n from g where dept = 'ops'")).containsExactly(row(2L));
    }

    @Test
    void orderByChoosesTheBackingsScanOrder() {
        session.execute("create materialized view by_pay as select id, salary from emp order by salary desc");
        assertThat(rows("select id from by_pay")).containsExactly(row(1L), row(2L), row(3L));
        session.execute("update emp set salary = 200 where id = 3");
        assertThat(rows("select id from by_pay")).containsExactly(row(3L), row(1L), row(2L));
    }

    @Test
    void aFullRebuildBodyOverALargeSourceIsRefusedByTheThreshold() {
        session.execute("pragma materialized_view_rebuild_row_threshold = 2");
        assertThatThrownBy(() -> session.execute("create materialized view j as select dept from emp union select name from dept"))
                .hasMessageContaining("cannot be materialized")
                .hasMessageContaining("materialized_view_rebuild_row_threshold");
        session.execute("create materialized view ok as select dept, count(*) as n from emp group by dept");
    }

    @Test
    void aNonDeterministicFullRebuildBodyNeedsThePragma() {
        assertThatThrownBy(() -> session.execute("create materialized view r as select dept, count(*) + random() % 1 as n from emp group by dept union select 'x', 1"))
                .hasMessageContaining("non-deterministic expression column")
                .hasMessageContaining("nondeterministic_schema");
        session.execute("pragma nondeterministic_schema = true");
        session.execute("create materialized view r as select dept, count(*) + random() % 1 as n from emp group by dept union select 'x', 1");
        assertThat(arm("r")).isEqualTo("full rebuild");
    }
}
