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
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * CHECK operation masks and constraint conflict clauses live in the canonical DDL a durable
 * catalog keeps: a reopened database reads them back and enforces them as before.
 */
class DurableConstraintClausesTest {
    @TempDir
    Path directory;

    @Test
    void reopeningKeepsEachConstraintsResolutionAndEachChecksOperations() {
        List<List<Object>> before;
        try (Database db = Derive.open(directory); Session s = db.openSession()) {
            script(s, """
                    create table acct (id integer primary key on conflict ignore, code text unique on conflict replace,
                                       balance integer not null on conflict replace default 0, status text,
                                       constraint closed_only check on delete (old.status = 'closed'),
                                       constraint limited check on update (new.balance >= old.balance - 10));
                    insert into acct values (1, 'a', 10, 'open'), (2, 'b', 5, 'closed');
                    """);
            before = rows(s, "select sql from schema() where name = 'acct'");
        }
        try (Database db = Derive.open(directory); Session s = db.openSession()) {
            assertThat(rows(s, "select sql from schema() where name = 'acct'")).isEqualTo(before);
            assertThat(before.get(0).get(0).toString()).contains("id integer not null",
                    "code text, balance integer not null on conflict replace default 0",
                    "primary key (id) on conflict ignore", "unique (code) on conflict replace",
                    "check on delete (old.status = 'closed')", "check on update (new.balance >= old.balance - 10)");
            s.execute("insert into acct values (1, 'z', 99, 'open'), (3, 'b', null, 'open')");
            assertThat(rows(s, "select id, code, balance from acct order by id"))
                    .containsExactly(List.of(1L, "a", 10L), List.of(3L, "b", 0L));
            assertThatThrownBy(() -> s.execute("delete from acct where id = 1"))
                    .hasMessageContaining("CHECK constraint failed: closed_only");
            assertThatThrownBy(() -> s.execute("update acct set balance = -5 where id = 1"))
                    .hasMessageContaining("CHECK constraint failed: limited");
        }
    }

    @Test
    void aReopenedMaintainedTableAppliesItsUpdateCheckToDerivedRowsAndNeverItsDeleteCheck() {
        try (Database db = Derive.open(directory); Session s = db.openSession()) {
            script(s, """
                    create table t (k integer primary key, n integer);
                    insert into t values (1, 1), (2, 2);
                    create table m (k integer primary key, n integer, constraint small check on update (n < 10),
                                    constraint kept check on delete (old.n > 100)) maintained as select k, n from t;
                    """);
        }
        try (Database db = Derive.open(directory); Session s = db.openSession()) {
            assertThatThrownBy(() -> s.execute("insert into t values (3, 50)"))
                    .hasMessageContaining("CHECK constraint failed: small (n < 10) — row derived into maintained table 'main.m'");
            s.execute("delete from t where k = 1");
            assertThat(rows(s, "select k, n from m")).containsExactly(List.of(2L, 2L));
        }
    }

    private static void script(Session s, String sql) {
        for (String statement : sql.split(";\\s*\\n")) {
            if (!statement.isBlank()) {
                s.execute(statement);
            }
        }
    }

    private static List<List<Object>> rows(Session s, String query) {
        List<List<Object>> rows = new ArrayList<>();
        for (Row row : s.execute(query).rows()) {
            rows.add(row.values());
        }
        return rows;
    }
}
