package io.derive.engine.contract;

import io.derive.engine.api.DeriveException;
import org.junit.jupiter.api.Test;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A materialized view's refresh schedule (semantics §9) is catalog data: set and dropped by
 * {@code alter materialized view}, rolled back like DDL, kept by a rename and a new body, shown
 * by {@code materialized_views()} with the next time it names and how the last refresh ended.
 */
public abstract class RefreshScheduleContract extends HostContractTest {

    private void view() {
        script("""
                create table t (k integer primary key, v integer);
                insert into t values (1, 10), (2, 20);
                create materialized view m as select k, v from t where v > 10;
                """);
    }

    private Object schedule(String view) {
        return rows("select refresh_schedule from materialized_views() where name = ?", view).get(0).get(0);
    }

    @Test
    void aScheduleIsShownWithTheNextTimeItNames() {
        view();
        session.execute("alter materialized view m set refresh schedule '*/10 * * * * *'");
        Instant before = Instant.now();
        var shown = rows("select refresh_schedule, next_refresh from materialized_views() where name = 'm'").get(0);
        assertThat(shown.get(0)).isEqualTo("*/10 * * * * *");
        Instant next = Instant.parse((String) shown.get(1));
        assertThat(next).isAfter(before.minusSeconds(1)).isBeforeOrEqualTo(before.plusSeconds(10));
        assertThat(next.getEpochSecond() % 10).isZero();
    }

    @Test
    void aViewWithoutAScheduleShowsNone() {
        view();
        assertThat(rows("select refresh_schedule, next_refresh from materialized_views()")).containsExactly(row(null, null));
    }

    @Test
    void dropRefreshScheduleRemovesIt() {
        view();
        script("""
                alter materialized view m set refresh schedule '0 * * * *';
                alter materialized view m drop refresh schedule;
                """);
        assertThat(schedule("m")).isNull();
    }

    @Test
    void setReplacesTheSchedule() {
        view();
        script("""
                alter materialized view m set refresh schedule '0 * * * *';
                alter materialized view m set refresh schedule '0 0 * * MON';
                """);
        assertThat(schedule("m")).isEqualTo("0 0 * * MON");
    }

    @Test
    void aRolledBackSetLeavesNoSchedule() {
        view();
        session.execute("begin");
        session.execute("alter materialized view m set refresh schedule '0 * * * *'");
        assertThat(schedule("m")).isEqualTo("0 * * * *");
        session.execute("rollback");
        assertThat(schedule("m")).isNull();
    }

    @Test
    void anotherSessionSeesTheScheduleOnlyOnceItCommits() {
        view();
        session.execute("begin");
        session.execute("alter materialized view m set refresh schedule '0 * * * *'");
        try (var other = db.openSession()) {
            assertThat(rows(other, "select refresh_schedule from materialized_views()")).containsExactly(row((Object) null));
            session.execute("commit");
            assertThat(rows(other, "select refresh_schedule from materialized_views()")).containsExactly(row("0 * * * *"));
        }
    }

    @Test
    void anInvalidScheduleIsRefusedAtItsPositionAndChangesNothing() {
        view();
        session.execute("alter materialized view m set refresh schedule '0 * * * *'");
        assertThatThrownBy(() -> session.execute("alter materialized view m\n  set refresh schedule '0 * * * * * *'"))
                .isInstanceOf(DeriveException.class)
                .hasMessage("materialized view 'main.m': invalid refresh schedule '0 * * * * * *': it has 7 fields; a schedule"
                        + " has 5 (minute hour day-of-month month day-of-week) or 6 (second first) at 2:3");
        assertThat(schedule("m")).isEqualTo("0 * * * *");
    }

    @Test
    void droppingAScheduleAViewDoesNotHaveIsRefused() {
        view();
        assertThatThrownBy(() -> session.execute("alter materialized view m drop refresh schedule"))
                .hasMessage("materialized view 'main.m' has no refresh schedule to drop at 1:27");
    }

    @Test
    void aTableHasNoSchedule() {
        view();
        assertThatThrownBy(() -> session.execute("alter materialized view t set refresh schedule '0 * * * *'"))
                .hasMessageContaining("'t' is a table, not a materialized view");
    }

    @Test
    void aRenameANewBodyAndStalenessKeepTheSchedule() {
        view();
        script("""
                alter materialized view m set refresh schedule '0 * * * *';
                alter table m rename to n;
                alter table n set maintained as select k, v from t where v > 15;
                alter table t alter column v set data type real;
                """);
        assertThat(rows("select name, stale, refresh_schedule from materialized_views()"))
                .containsExactly(row("n", true, "0 * * * *"));
    }

    @Test
    void theLastRefreshShowsWhenItEndedAndHowMuchItChanged() {
        view();
        assertThat(rows("select last_refresh, last_refresh_outcome from materialized_views()")).containsExactly(row(null, null));
        Instant before = Instant.now();
        script("""
                begin;
                update t set v = 30 where k = 1;
                refresh materialized view m;
                commit;
                """);
        var last = rows("select last_refresh, last_refresh_outcome from materialized_views()").get(0);
        assertThat(Instant.parse((String) last.get(0))).isAfterOrEqualTo(before);
        assertThat(last.get(1)).isEqualTo("completed: 0 rows changed");
    }

    @Test
    void aRolledBackRefreshIsShownAsRolledBack() {
        view();
        script("""
                begin;
                refresh materialized view m;
                rollback;
                """);
        assertThat(rows("select last_refresh_outcome from materialized_views()")).containsExactly(row("rolled back"));
    }
}
