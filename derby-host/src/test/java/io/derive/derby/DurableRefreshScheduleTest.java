package io.derive.derby;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.Derive;
import io.derive.engine.RehydrateMode;
import io.derive.engine.api.Database;
import io.derive.engine.api.Row;
import io.derive.engine.api.Session;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A database on disk keeps its materialized views' refresh schedules as its catalog keeps DDL: committed ones only. */
class DurableRefreshScheduleTest {
    @TempDir
    Path directory;

    @Test
    void aReopenShowsTheCommittedSchedulesUnderTheViewsCurrentNames() {
        run("""
                create table t (k integer primary key, v integer);
                create materialized view a as select k, v from t;
                create materialized view b as select k from a;
                create materialized view c as select v, count(*) as n from t group by v;
                alter materialized view a set refresh schedule '*/5 * * * * *';
                alter materialized view b set refresh schedule '0 * * * *';
                alter materialized view c set refresh schedule '0 0 * * *';
                alter materialized view c drop refresh schedule;
                alter table a rename to a2;
                """);
        run("""
                begin;
                alter materialized view c set refresh schedule '0 1 * * *';
                rollback;
                """);
        assertThat(schedules()).containsExactly(
                List.of("a2", "*/5 * * * * *"), List.of("b", "0 * * * *"), List.of("c", "none"));
    }

    @Test
    void aScheduleSurvivesTwoReopensAndADropAfterTheFirst() {
        run("""
                create table t (k integer primary key);
                create materialized view m as select k from t;
                alter materialized view m set refresh schedule '0 * * * *';
                """);
        assertThat(schedules()).containsExactly(List.of("m", "0 * * * *"));
        run("alter materialized view m drop refresh schedule");
        assertThat(schedules()).containsExactly(List.of("m", "none"));
    }

    @Test
    void aViewDroppedWithItsScheduleLeavesNoneForAViewOfTheSameName() {
        run("""
                create table t (k integer primary key);
                create materialized view m as select k from t;
                alter materialized view m set refresh schedule '0 * * * *';
                drop materialized view m;
                create materialized view m as select k from t;
                """);
        assertThat(schedules()).containsExactly(List.of("m", "none"));
    }

    @Test
    void aViewLeftPendingByADeferredRehydrateKeepsItsScheduleThroughItsRefill() {
        run("""
                create table t (k integer primary key);
                create materialized view m using memory as select k from t;
                alter materialized view m set refresh schedule '0 * * * *';
                """);
        try (Database db = Derive.open(DatabaseConfig.inDirectory(directory).withRehydrateMode(RehydrateMode.DEFERRED));
             Session s = db.openSession()) {
            assertThat(rows(s, "select name, refresh_schedule from materialized_views()")).containsExactly(List.of("m", "0 * * * *"));
            s.execute("rehydrate materialized view m");
            assertThat(rows(s, "select name, refresh_schedule from materialized_views()")).containsExactly(List.of("m", "0 * * * *"));
        }
        assertThat(schedules()).containsExactly(List.of("m", "0 * * * *"));
    }

    private List<List<Object>> schedules() {
        try (Database db = Derive.open(directory); Session s = db.openSession()) {
            return rows(s, "select name, coalesce(refresh_schedule, 'none') from materialized_views() order by name");
        }
    }

    private static List<List<Object>> rows(Session s, String sql) {
        List<List<Object>> rows = new ArrayList<>();
        for (Row row : s.execute(sql).rows()) {
            rows.add(row.values());
        }
        return rows;
    }

    private void run(String script) {
        try (Database db = Derive.open(directory); Session s = db.openSession()) {
            for (String statement : script.split(";\\s*\\n")) {
                if (!statement.isBlank()) {
                    s.execute(statement);
                }
            }
        }
    }
}
