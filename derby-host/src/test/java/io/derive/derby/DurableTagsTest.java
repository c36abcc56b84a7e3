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

/** A database on disk keeps the tags of its tables, views and materialized views, of every literal type. */
class DurableTagsTest {
    @TempDir
    Path directory;

    @Test
    void reopeningShowsTheSameTagsOnTablesViewsAndMaterializedViews() {
        run("""
                create table t (k integer primary key, v text) with tags (owner = 'ann', n = 3);
                create view v as select k from t with tags (x = 1.5, b = true);
                create materialized view m as select k, v from t with tags (z = null, d = -3);
                alter table t add tags (f = false);
                alter view v drop tags (b);
                alter materialized view m add tags (s = 'it''s');
                """);
        try (Database db = Derive.open(directory); Session s = db.openSession()) {
            assertThat(rows(s, "select name, tags from schema() order by name")).containsExactly(
                    List.of("m", "{\"z\":null,\"d\":-3,\"s\":\"it's\"}"),
                    List.of("t", "{\"owner\":\"ann\",\"n\":3,\"f\":false}"),
                    List.of("v", "{\"x\":1.5}"));
            assertThat(rows(s, "select tags from materialized_views()"))
                    .containsExactly(List.of("{\"z\":null,\"d\":-3,\"s\":\"it's\"}"));
        }
    }

    @Test
    void aTableThatGainedTagsAfterItsMaterializedViewKeepsThemAcrossTwoReopens() {
        run("""
                create table t (k integer primary key);
                create materialized view m as select k from t;
                alter table t set tags (a = 1);
                """);
        run("alter table t add tags (b = 'two')");
        try (Database db = Derive.open(directory); Session s = db.openSession()) {
            assertThat(rows(s, "select name, tags from schema() order by name"))
                    .containsExactly(List.of("m", "{}"), List.of("t", "{\"a\":1,\"b\":\"two\"}"));
        }
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

    private static List<List<Object>> rows(Session s, String sql) {
        List<List<Object>> rows = new ArrayList<>();
        for (Row row : s.execute(sql).rows()) {
            rows.add(row.values());
        }
        return rows;
    }
}
