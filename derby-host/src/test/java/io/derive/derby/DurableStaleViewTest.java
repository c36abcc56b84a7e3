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
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A view left stale by a change of a column type its body reads is refilled when the database
 * reopens, taking the shape its body now derives as a refresh would: it stays a materialized view.
 */
class DurableStaleViewTest {
    @TempDir
    Path directory;

    @Test
    void aViewStaleByARetypedSourceColumnIsRefilledInItsNewShapeAtReopen() {
        try (Database db = Derive.open(directory); Session s = db.openSession()) {
            s.execute("create table src (k integer primary key, v integer not null)");
            s.execute("insert into src values (1, 1), (2, 2)");
            s.execute("create materialized view m as select k, v from src");
            s.execute("alter table src alter column v set data type real");
            s.execute("insert into src values (3, 3.5)");
        }
        try (Database db = Derive.open(directory); Session s = db.openSession()) {
            assertThat(rows(s, "select name, stale from materialized_views()")).containsExactly(List.of("m", false));
            assertThat(rows(s, "select action, reason from rehydrate_report() where name = 'm'"))
                    .containsExactly(List.of("refilled", "it is in the durable stale set"));
            assertThat(rows(s, "select type from table_info('m') where name = 'v'")).containsExactly(List.of("real"));
            assertThat(rows(s, "select * from m order by k")).containsExactly(List.of(1L, 1.0), List.of(2L, 2.0), List.of(3L, 3.5));
        }
    }

    @Test
    void aStaleViewLeftPendingTakesItsNewShapeAtOpenAndItsRowsAtItsRefill() {
        try (Database db = Derive.open(directory); Session s = db.openSession()) {
            s.execute("create table src (k integer primary key, v integer not null)");
            s.execute("insert into src values (1, 1), (2, 2)");
            s.execute("create materialized view m as select k, v from src");
            s.execute("alter table src alter column v set data type real");
            s.execute("insert into src values (3, 3.5)");
        }
        DatabaseConfig deferred = DatabaseConfig.inDirectory(directory).withRehydrateMode(RehydrateMode.DEFERRED);
        try (Database db = Derive.open(deferred); Session s = db.openSession()) {
            assertThat(rows(s, "select name, round, reason from rehydrate_pending()"))
                    .containsExactly(List.of("m", 1L, "it is in the durable stale set"));
            assertThat(rows(s, "select type from table_info('m') where name = 'v'")).containsExactly(List.of("real"));
            assertThatThrownBy(() -> s.execute("select * from m")).hasMessageContaining("materialized view 'main.m' is being rehydrated");
            s.execute("rehydrate materialized view m");
            assertThat(rows(s, "select name, stale from materialized_views()")).containsExactly(List.of("m", false));
            assertThat(rows(s, "select * from m order by k")).containsExactly(List.of(1L, 1.0), List.of(2L, 2.0), List.of(3L, 3.5));
        }
        try (Database db = Derive.open(directory); Session s = db.openSession()) {
            assertThat(rows(s, "select action from rehydrate_report() where name = 'm'")).containsExactly(List.of("adopted"));
        }
    }

    private static List<List<Object>> rows(Session s, String sql) {
        List<List<Object>> rows = new ArrayList<>();
        for (Row row : s.execute(sql).rows()) {
            rows.add(row.values());
        }
        return rows;
    }
}
