package io.derive.derby;

import io.derive.engine.Derive;
import io.derive.engine.api.Database;
import io.derive.engine.api.Row;
import io.derive.engine.api.Session;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A chunked refresh run's shadow and lease live in the database: after the database reopens, the
 * run that held the lease resumes after its last committed chunk, and a lease the earlier open
 * held passes to a new run with the rows already written (the earlier run cannot be alive).
 */
class DurableRefreshRunTest {
    private static final String BODY = "select g, count(*) as n, sum(v) as total from src group by g";

    @TempDir
    Path directory;

    private void runUntilAChunkIsWritten(String run) {
        try (Database db = Derive.open(directory); Session s = db.openSession()) {
            s.execute("create table src (k integer primary key, g integer not null, v integer not null)");
            s.execute("insert into src select value, value % 5, value from generate_series(1, 50)");
            s.execute("create materialized view per_g as " + BODY);
            s.execute("refresh materialized view per_g start run '" + run + "'");
            s.execute("refresh materialized view per_g continue run '" + run + "' limit 2");
        }
    }

    @Test
    void theRunResumesAfterItsLastChunkOnceTheDatabaseReopens() {
        runUntilAChunkIsWritten("r");
        try (Database db = Derive.open(directory); Session s = db.openSession()) {
            assertThat(rows(s, "refresh materialized view per_g start run 'r'")).containsExactly(List.of("r", "main.per_g__refresh", 2L, 1L));
            assertThat(rows(s, "refresh materialized view per_g continue run 'r' limit 10")).containsExactly(List.of(3L, 5L, 5L, "(4)", 1L));
            s.execute("insert into src values (100, 9, 9)");
            assertThat(rows(s, "refresh materialized view per_g finish run 'r'").get(0).get(1)).isEqualTo(1L);
            assertThat(rows(s, "select * from per_g order by g")).isEqualTo(rows(s, BODY + " order by g"));
        }
        try (Database db = Derive.open(directory); Session s = db.openSession()) {
            assertThat(rows(s, "select * from per_g order by g")).as("the swapped storage is the view's after a reopen")
                    .isEqualTo(rows(s, BODY + " order by g"));
            assertThat(rows(s, "select name from schema() where name like 'per_g%' order by name")).containsExactly(List.of("per_g"));
        }
    }

    @Test
    void aLeaseAnEarlierOpenHeldPassesToANewRunWithItsRows() {
        runUntilAChunkIsWritten("crashed");
        try (Database db = Derive.open(directory); Session s = db.openSession()) {
            assertThat(rows(s, "refresh materialized view per_g start run 'next'")).containsExactly(List.of("next", "main.per_g__refresh", 2L, 1L));
            s.execute("refresh materialized view per_g continue run 'next' limit 10");
            s.execute("refresh materialized view per_g finish run 'next'");
            assertThat(rows(s, "select * from per_g order by g")).isEqualTo(rows(s, BODY + " order by g"));
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
