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
 * A chunked attach run's lease and position live in the database: after the database reopens,
 * the run resumes after the last key its committed chunks reconciled, and a lease an earlier
 * open held passes to a new run of the same derivation with that position.
 */
class DurableAttachRunTest {
    private static final String BODY = "select k, v * 10 as w from src";

    @TempDir
    Path directory;

    private void runUntilAChunkIsReconciled(String run) {
        try (Database db = Derive.open(directory); Session s = db.openSession()) {
            s.execute("create table src (k integer primary key, v integer not null)");
            s.execute("insert into src select value, value from generate_series(1, 20)");
            s.execute("create table t (k integer primary key, w integer not null)");
            s.execute("insert into t select value, 0 from generate_series(1, 30)");
            s.execute("alter table t attach start run '" + run + "' maintained as " + BODY);
            s.execute("alter table t attach continue run '" + run + "' limit 5");
        }
    }

    @Test
    void theRunResumesAfterItsLastReconciledKeyOnceTheDatabaseReopens() {
        runUntilAChunkIsReconciled("r");
        try (Database db = Derive.open(directory); Session s = db.openSession()) {
            assertThat(rows(s, "alter table t attach start run 'r' maintained as " + BODY))
                    .containsExactly(List.of("r", "main.t__attach", "(5)", 1L));
            assertThat(rows(s, "alter table t attach continue run 'r' limit 100").get(0).subList(0, 5))
                    .as("15 updated, 10 deleted")
                    .containsExactly(25L, 20L, 20L, "(20)", 1L);
            s.execute("alter table t attach finish run 'r'");
        }
        try (Database db = Derive.open(directory); Session s = db.openSession()) {
            assertThat(rows(s, "select * from t order by k")).isEqualTo(rows(s, BODY + " order by k"));
            assertThat(rows(s, "select name from materialized_views() where name = 't'")).containsExactly(List.of("t"));
            assertThat(rows(s, "select name from schema() where name like 't%' order by name")).containsExactly(List.of("t"));
        }
    }

    @Test
    void aLeaseAnEarlierOpenHeldPassesToANewRunOfTheSameDerivation() {
        runUntilAChunkIsReconciled("crashed");
        try (Database db = Derive.open(directory); Session s = db.openSession()) {
            assertThat(rows(s, "alter table t attach start run 'next' maintained as " + BODY))
                    .containsExactly(List.of("next", "main.t__attach", "(5)", 1L));
            s.execute("alter table t attach continue run 'next' limit 100");
            s.execute("alter table t attach finish run 'next'");
            assertThat(rows(s, "select * from t order by k")).isEqualTo(rows(s, BODY + " order by k"));
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
