package io.derive.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.derive.derby.DerbyTableModule;
import io.derive.it.server.LibertyServer;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;

import jakarta.json.Json;
import jakarta.json.JsonObject;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code mv-verify} on a server whose Derby tables were changed behind the engine's back, while
 * it was stopped (as an operator with a Derby tool might): the reopened database adopts the
 * views as they are, the job names the drifted keys, range of keys by range, and with
 * {@code repair} rewrites exactly those.
 */
class VerifyJobIT {
    private static final LibertyServer server = LibertyServer.fromBuild();
    private static final AdminSql sql = new AdminSql(server);

    @BeforeAll
    static void startAFreshServer() {
        server.startAfresh(TestApplication.ear());
    }

    @AfterAll
    static void stopServer() {
        server.stop();
    }

    @Test
    void rowsChangedInDerbyWhileTheServerWasStoppedAreFoundAndRepairedByTheVerifyJob() throws Exception {
        sql.run("create table audited (k integer primary key, g integer not null, v text not null)");
        sql.run("insert into audited values (1, 1, 'a'), (2, 1, 'b'), (3, 2, 'c')");
        sql.run("create materialized view audited_proj as select k, v from audited");
        sql.run("create materialized view audited_by_g as select g, count(*) as n from audited group by g");
        server.stop();
        behindTheEngine("update " + derbyTable("audited_proj") + " set \"v\" = 'x' where \"k\" = 2",
                "update " + derbyTable("audited_by_g") + " set \"n\" = 5 where \"g\" = 2");
        server.start();

        assertThat(verify("audited_proj", false)).isEqualTo("1 drifted keys (0 missing, 0 extra, 1 differs): differs (2)");
        assertThat(verify("audited_by_g", true)).isEqualTo("1 drifted keys (0 missing, 0 extra, 1 differs), repaired: differs (2)");
        assertThat(verify("audited_proj", true)).isEqualTo("1 drifted keys (0 missing, 0 extra, 1 differs), repaired: differs (2)");

        assertThat(verify("audited_proj", false)).isEqualTo("no drift");
        assertThat(verify("audited_by_g", false)).isEqualTo("no drift");
        assertThat(sql.rows("select k, v from audited_proj order by k").toString()).isEqualTo("[[1,\"a\"],[2,\"b\"],[3,\"c\"]]");
        assertThat(sql.rows("select g, n from audited_by_g order by g").toString()).isEqualTo("[[1,2],[2,1]]");
        assertThat(sql.rows("select name, differs, repaired from verify_report() order by name").toString())
                .isEqualTo("[[\"audited_by_g\",0,false],[\"audited_proj\",0,false]]");
    }

    @Test
    void aLargeViewIsVerifiedRangeByRangeAndEveryDriftedKeyIsFoundOnceAndRepaired() throws Exception {
        sql.run("create table grid (a integer not null, b integer not null, v text not null, primary key (a, b))");
        sql.run("insert into grid select value / 50, value % 50, 'v' || value from generate_series(0, 2499)");
        sql.run("create materialized view grid_copy as select a, b, v from grid");
        server.stop();
        String copy = derbyTable("grid_copy");
        behindTheEngine("update " + copy + " set \"v\" = 'x' where \"a\" = 0 and \"b\" = 0",
                "update " + copy + " set \"v\" = 'x' where \"a\" = 1 and \"b\" = 49",
                "delete from " + copy + " where \"a\" = 2 and \"b\" = 0",
                "update " + copy + " set \"v\" = 'x' where \"a\" = 49 and \"b\" = 49",
                "delete from " + derbyTable("grid") + " where \"a\" = 49 and \"b\" = 0");
        server.start();

        JsonObject found = run("grid_copy", false);
        JsonObject progress = Jobs.step(found, "verify").getJsonObject("progress");
        assertThat(found.getString("exitStatus")).isEqualTo("5 drifted keys (1 missing, 1 extra, 3 differs): differs (0, 0); "
                + "differs (1, 49); missing (2, 0); extra (49, 0); differs (49, 49)");
        assertThat(progress.getInt("chunks")).as("2,499 keys: 24 ranges of 100, then the open end").isEqualTo(25);
        assertThat(progress.getInt("position")).isEqualTo(2499);
        assertThat(sql.rows("select key_range from verify_report() where name = 'grid_copy'").getJsonArray(0).getString(0))
                .as("the last range: after the last key").startsWith("\"a\" >= ? and");

        assertThat(run("grid_copy", true).getString("exitStatus")).startsWith("5 drifted keys (1 missing, 1 extra, 3 differs), repaired:");
        assertThat(run("grid_copy", false).getString("exitStatus")).isEqualTo("no drift");
        assertThat(sql.rows("select count(*) from (select * from grid_copy except select * from grid)").toString()).isEqualTo("[[0]]");
        assertThat(sql.rows("select count(*) from grid_copy").toString()).isEqualTo("[[2499]]");
    }

    private static JsonObject run(String view, boolean repair) throws Exception {
        JsonObject execution = Jobs.run(server, "mv-verify",
                Json.createObjectBuilder().add("view", view).add("repair", repair).add("rangeRows", 100).build());
        assertThat(execution.getString("batchStatus")).as(execution.toString()).isEqualTo("COMPLETED");
        return execution;
    }

    private static String verify(String view, boolean repair) throws Exception {
        JsonObject execution = Jobs.run(server, "mv-verify", Json.createObjectBuilder().add("view", view).add("repair", repair).build());
        assertThat(execution.getString("batchStatus")).as(execution.toString()).isEqualTo("COMPLETED");
        return execution.getString("exitStatus");
    }

    /** Statements run on the stopped server's Derby database directly (the engine's column names are lower case: quoted). */
    private static void behindTheEngine(String... statements) throws SQLException {
        try (Connection c = derby(); Statement s = c.createStatement()) {
            for (String statement : statements) {
                assertThat(s.executeUpdate(statement)).as(statement).isEqualTo(1);
            }
        } finally {
            shutDownDerby();
        }
    }

    /** The Derby table that holds view {@code name}'s rows, quoted. */
    private static String derbyTable(String name) throws SQLException {
        try (Connection c = derby(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("select s.schemaname, t.tablename from sys.systables t join sys.sysschemas s"
                     + " on s.schemaid = t.schemaid where t.tabletype = 'T' and upper(t.tablename) = '"
                     + name.toUpperCase(Locale.ROOT) + "'")) {
            assertThat(rs.next()).as("a Derby table for " + name).isTrue();
            return "\"" + rs.getString(1) + "\".\"" + rs.getString(2) + "\"";
        }
    }

    private static Connection derby() throws SQLException {
        return DriverManager.getConnection("jdbc:derby:" + derbyDatabase());
    }

    /** Lets the server boot the database again: an embedded Derby database is open in one JVM at a time. */
    private static void shutDownDerby() {
        try {
            DriverManager.getConnection("jdbc:derby:" + derbyDatabase() + ";shutdown=true").close();
        } catch (SQLException expected) {
            // Derby reports a successful shutdown of one database as SQLState 08006.
            assertThat(expected.getSQLState()).as(expected.toString()).isEqualTo("08006");
        }
    }

    /** Where the sample server's Derive database (databaseDirectory) keeps its Derby database. */
    private static Path derbyDatabase() {
        return DerbyTableModule.derbyDirectory(server.directory().resolve("databases/derive"));
    }
}
