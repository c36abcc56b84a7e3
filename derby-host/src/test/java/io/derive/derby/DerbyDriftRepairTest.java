package io.derive.derby;

import io.derive.engine.Derive;
import io.derive.engine.api.Database;
import io.derive.engine.api.Result;
import io.derive.engine.api.Row;
import io.derive.engine.api.Session;
import io.derive.engine.api.StatementKind;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code verify materialized view} on views whose Derby tables were changed behind the engine's
 * back, through plain JDBC on the same database: it names each drifted key, and {@code repair}
 * rewrites exactly those, leaving the sources as they were.
 */
class DerbyDriftRepairTest {
    @TempDir
    Path directory;
    private Database db;
    private Session session;

    @BeforeEach
    void open() {
        db = Derive.open(directory);
        session = db.openSession();
        for (String statement : """
                create table src (k integer primary key, g integer not null, v text not null);
                create materialized view proj as select k, v from src where g > 0;
                create materialized view per_g as select g, count(*) as n from src group by g;
                insert into src values (1, 1, 'a'), (2, 1, 'b'), (3, 2, 'c'), (4, 0, 'd')
                """.split(";\\s*\\n")) {
            session.execute(statement);
        }
    }

    @AfterEach
    void close() {
        session.close();
        db.close();
    }

    @Test
    void viewsMaintainedByTheEngineHaveNoDrift() {
        for (String view : List.of("proj", "per_g")) {
            Result verified = session.execute("verify materialized view " + view);
            assertThat(verified.kind()).isEqualTo(StatementKind.VERIFY);
            assertThat(verified.rows()).as(view).isEmpty();
            assertThat(verified.columns()).containsExactly("drift", "key", "stored", "expected");
        }
    }

    @Test
    void rowsChangedInDerbyDirectlyAreReportedAsDriftedKeys() throws SQLException {
        behindTheEngine("delete from " + derbyTable("proj") + " where \"k\" = 1",
                "update " + derbyTable("proj") + " set \"v\" = 'x' where \"k\" = 2",
                "delete from " + derbyTable("src") + " where \"k\" = 3");

        assertThat(drift("verify materialized view proj")).containsExactly(
                List.of("missing", "(1)", "", "(1, 'a')"),
                List.of("differs", "(2)", "(2, 'x')", "(2, 'b')"),
                List.of("extra", "(3)", "(3, 'c')", ""));
    }

    @Test
    void aKeyRangeNamesAndRepairsOnlyTheDriftInsideIt() throws SQLException {
        behindTheEngine("delete from " + derbyTable("proj") + " where \"k\" = 1",
                "update " + derbyTable("proj") + " set \"v\" = 'x' where \"k\" = 2",
                "delete from " + derbyTable("src") + " where \"k\" = 3");

        assertThat(drift("verify materialized view proj repair where k > 1 and k <= 2")).containsExactly(
                List.of("differs", "(2)", "(2, 'x')", "(2, 'b')"));
        assertThat(drift("verify materialized view proj where k <= 1")).containsExactly(List.of("missing", "(1)", "", "(1, 'a')"));
        assertThat(drift("verify materialized view proj where k > 2")).containsExactly(List.of("extra", "(3)", "(3, 'c')", ""));
        assertThat(drift("verify materialized view proj")).as("outside the repaired range, untouched").containsExactly(
                List.of("missing", "(1)", "", "(1, 'a')"),
                List.of("extra", "(3)", "(3, 'c')", ""));
    }

    @Test
    void verifyReportCountsTheDriftByKindWithASampleOfTheKeys() throws SQLException {
        behindTheEngine("delete from " + derbyTable("proj") + " where \"k\" = 1",
                "update " + derbyTable("proj") + " set \"v\" = 'x' where \"k\" = 2");
        session.execute("verify materialized view proj repair");

        assertThat(values("select name, missing, extra, differs, repaired, sample from verify_report()"))
                .containsExactly(List.of("proj", 1L, 0L, 1L, true, "missing (1); differs (2)"));
    }

    @Test
    void repairRewritesExactlyTheDriftedKeysAndTheViewThenEqualsItsBody() throws SQLException {
        behindTheEngine("update " + derbyTable("per_g") + " set \"n\" = 7 where \"g\" = 1",
                "delete from " + derbyTable("proj") + " where \"k\" = 1");

        assertThat(drift("verify materialized view per_g repair")).containsExactly(List.of("differs", "(1)", "(1, 7)", "(1, 2)"));
        assertThat(drift("verify materialized view proj repair")).containsExactly(List.of("missing", "(1)", "", "(1, 'a')"));

        assertThat(drift("verify materialized view per_g")).isEmpty();
        assertThat(drift("verify materialized view proj")).isEmpty();
        assertThat(values("select g, n from per_g order by g")).containsExactly(List.of(0L, 1L), List.of(1L, 2L), List.of(2L, 1L));
        assertThat(values("select k, v from proj order by k"))
                .containsExactly(List.of(1L, "a"), List.of(2L, "b"), List.of(3L, "c"));
        assertThat(values("select count(*) from src")).containsExactly(List.of(4L));
    }

    @Test
    void aRepairRolledBackLeavesTheDriftAsItWas() throws SQLException {
        behindTheEngine("delete from " + derbyTable("proj") + " where \"k\" = 1");

        session.execute("begin");
        session.execute("verify materialized view proj repair");
        assertThat(drift("verify materialized view proj")).as("the repair, seen by its own transaction").isEmpty();
        session.execute("rollback");

        assertThat(drift("verify materialized view proj")).containsExactly(List.of("missing", "(1)", "", "(1, 'a')"));
    }

    @Test
    void aRepairWaitsForAWriterOfTheViewAndThenKeepsItsChange() throws Exception {
        behindTheEngine("update " + derbyTable("proj") + " set \"v\" = 'x' where \"k\" = 2");
        ExecutorService thread = Executors.newSingleThreadExecutor();
        try (Session writer = db.openSession(); Session observer = db.openSession()) {
            writer.execute("begin");
            writer.execute("update src set v = 'y' where k = 2");
            session.execute("begin");
            Future<Result> repair = thread.submit(() -> session.execute("verify materialized view proj repair"));
            while (!repair.isDone() && values(observer, "select count(*) from locks() where waiting").equals(List.of(List.of(0L)))) {
                Thread.sleep(5);
            }

            writer.execute("commit");
            repair.get(30, TimeUnit.SECONDS);
            session.execute("commit");
        } finally {
            thread.shutdownNow();
        }

        assertThat(values("select k, v from proj where k = 2")).containsExactly(List.of(2L, "y"));
        assertThat(drift("verify materialized view proj")).isEmpty();
    }

    /** Each drifted key as {drift, key, stored, expected}, a missing row as "". */
    private List<List<Object>> drift(String sql) {
        return session.execute(sql).rows().stream()
                .map(r -> r.values().stream().map(v -> v == null ? (Object) "" : v).toList()).toList();
    }

    private List<List<Object>> values(String sql) {
        return values(session, sql);
    }

    private static List<List<Object>> values(Session s, String sql) {
        return s.execute(sql).rows().stream().map(Row::values).toList();
    }

    /**
     * Statements run on the Derby database itself, beside the engine, each committed at once
     * (Derby keeps the engine's column names in lower case, so they are quoted).
     */
    private void behindTheEngine(String... statements) throws SQLException {
        try (Connection c = derby(); Statement s = c.createStatement()) {
            for (String statement : statements) {
                assertThat(s.executeUpdate(statement)).as(statement).isEqualTo(1);
            }
        }
    }

    /** The Derby table that holds view {@code name}'s rows, quoted. */
    private String derbyTable(String name) throws SQLException {
        try (Connection c = derby(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("select s.schemaname, t.tablename from sys.systables t join sys.sysschemas s"
                     + " on s.schemaid = t.schemaid where t.tabletype = 'T' and upper(t.tablename) = '" + name.toUpperCase() + "'")) {
            assertThat(rs.next()).as("a Derby table for " + name).isTrue();
            return "\"" + rs.getString(1) + "\".\"" + rs.getString(2) + "\"";
        }
    }

    private Connection derby() throws SQLException {
        return DriverManager.getConnection("jdbc:derby:" + DerbyTableModule.derbyDirectory(directory));
    }
}
