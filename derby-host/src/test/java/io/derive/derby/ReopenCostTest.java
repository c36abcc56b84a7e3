package io.derive.derby;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.Derive;
import io.derive.engine.api.Database;
import io.derive.engine.api.RehydrateReport;
import io.derive.engine.api.Session;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * What reopening a durable database costs in Derby (issue 16): after a clean close it counts no
 * table and builds no index, so its statements do not grow with the rows; after an unclean close
 * it counts each table once, and still takes the index tables as they are.
 */
class ReopenCostTest {
    private static final String SCHEMA = """
            create table t (k integer primary key, v integer not null, u text unique);
            create index t_by_v on t (v);
            create table s (k integer primary key, w integer);
            create materialized view m as select v, count(*) as n from t group by v
            """;

    @TempDir
    Path directory;

    @TempDir
    Path emptyDirectory;

    @Test
    void reopenAfterACleanCloseCountsNoTableAndBuildsNoIndex() {
        create(directory, 2500);
        Reopened reopened = reopen(directory);
        assertThat(reopened.report().lastCloseClean()).isTrue();
        assertThat(reopened.report().storage()).isEmpty();
        assertThat(reopened.report().views()).extracting(RehydrateReport.Outcome::action)
                .containsExactly(RehydrateReport.Action.ADOPTED);
    }

    @Test
    void reopenAfterACleanCloseRunsAsManyStatementsWhateverTheRows() {
        create(directory, 2500);
        create(emptyDirectory, 0);
        assertThat(reopen(directory).statements()).isEqualTo(reopen(emptyDirectory).statements());
    }

    @Test
    void reopenAfterACleanCloseKnowsEveryRowCount() {
        create(directory, 2500);
        DerbyTableModule module = DerbyTableModule.inDirectory(directory);
        try (Database db = Derive.open(config(module)); Session s = db.openSession()) {
            assertThat(s.execute("select row_count from materialized_views()").rows().get(0).get(0)).isEqualTo(25L);
            assertThat(s.execute("select count(*) from m").rows().get(0).get(0)).isEqualTo(25L);
            assertThat(s.execute("select count(*) from t where v = 3").rows().get(0).get(0)).isEqualTo(100L);
        }
    }

    @Test
    void reopenAfterAnUncleanCloseCountsEachTableOnceAndBuildsNoIndex() throws SQLException {
        create(directory, 2500);
        long clean = reopen(directory).statements();
        markNotClosed(directory);
        Reopened unclean = reopen(directory);
        assertThat(unclean.report().lastCloseClean()).isFalse();
        assertThat(unclean.report().storage()).extracting(RehydrateReport.Repair::table, RehydrateReport.Repair::work)
                .containsExactlyInAnyOrder(tuple("t", RehydrateReport.Work.COUNTED), tuple("s", RehydrateReport.Work.COUNTED),
                        tuple("m", RehydrateReport.Work.COUNTED));
        assertThat(unclean.statements()).isEqualTo(clean + 3);
    }

    @Test
    void rehydrateReportListsTheTablesAnUncleanCloseLeftUncounted() throws SQLException {
        create(directory, 10);
        markNotClosed(directory);
        try (Database db = Derive.open(config(DerbyTableModule.inDirectory(directory))); Session s = db.openSession()) {
            assertThat(s.execute("select name, action, index from rehydrate_report() where action = 'counted' order by name")
                    .rows()).extracting(r -> r.values()).containsExactly(
                    java.util.Arrays.asList("m", "counted", null), java.util.Arrays.asList("s", "counted", null),
                    java.util.Arrays.asList("t", "counted", null));
        }
    }

    @Test
    void anIndexWhoseDropRolledBackIsRebuiltAtReopenAndAnswers() {
        create(directory, 100);
        try (Database db = Derive.open(config(DerbyTableModule.inDirectory(directory))); Session s = db.openSession()) {
            s.execute("begin");
            s.execute("drop index t_by_v");
            s.execute("rollback");
            s.execute("insert into t values (1000, 7, 'x1000')");
        }
        try (Database db = Derive.open(config(DerbyTableModule.inDirectory(directory))); Session s = db.openSession()) {
            assertThat(db.rehydrateReport().storage()).extracting(RehydrateReport.Repair::index, RehydrateReport.Repair::work)
                    .containsExactly(tuple("t_by_v", RehydrateReport.Work.REBUILT));
            assertThat(s.execute("select count(*) from t where v = 7").rows().get(0).get(0)).isEqualTo(5L);
        }
        Reopened after = reopen(directory);
        assertThat(after.report().storage()).isEmpty();
        assertThat(after.statements()).as("the record of detached index tables is gone with its last name").isEqualTo(4);
    }

    @Test
    void anOpenThatOnlyReadsNeverAsksForTheLockSettings() {
        create(directory, 10);
        DerbyTableModule otherTimeout = DerbyTableModule.inDirectory(directory).withLockTimeout(Duration.ofSeconds(4));
        long reads;
        try (Database db = Derive.open(config(otherTimeout)); Session s = db.openSession()) {
            s.execute("select count(*) from t");
            reads = otherTimeout.statementsExecuted();
        }
        assertThat(reads).isEqualTo(reopen(directory).statements() + 1);
    }

    @Test
    void anAdoptingOpenReadsDerbysTableIdsAndEachOfTheEnginesThreeTablesOnce() {
        create(directory, 10);

        assertThat(reopen(directory).statements())
                .as("the ids of Derby's tables, to check the listing the clean close left; the catalog, its meta entries,"
                        + " heuristic decisions (no detached index is recorded)")
                .isEqualTo(4);
    }

    @Test
    void theFirstWriteOfAnOpenSetsOnlyTheLockSettingsThatChanged() {
        create(directory, 10);
        long same = writeOnce(DerbyTableModule.inDirectory(directory), 10);
        long other = writeOnce(DerbyTableModule.inDirectory(directory).withLockTimeout(Duration.ofSeconds(4)), 11);
        assertThat(other).as("two of the three settings change").isEqualTo(same + 2);
    }

    @Test
    void aWriteWithAnotherLockTimeoutStoresIt() throws SQLException {
        create(directory, 10);
        writeOnce(DerbyTableModule.inDirectory(directory).withLockTimeout(Duration.ofSeconds(4)), 10);
        try (EmbeddedDerbyDatabase derby = EmbeddedDerbyDatabase.open(DerbyTableModule.derbyDirectory(directory));
             Connection c = derby.connection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("values (syscs_util.syscs_get_database_property('derby.locks.waitTimeout'), "
                     + "syscs_util.syscs_get_database_property('derby.locks.deadlockTimeout'))")) {
            rs.next();
            assertThat(List.of(rs.getString(1), rs.getString(2))).containsExactly("4", "2");
        }
    }

    /** The statements an open of {@code module} runs that writes one row of {@code s} (key {@code k}), to its close. */
    private static long writeOnce(DerbyTableModule module, int k) {
        try (Database db = Derive.open(config(module)); Session s = db.openSession()) {
            s.execute("insert into s values (" + k + ", " + k + ")");
        }
        return module.statementsExecuted();
    }

    @Test
    void anOpenMarksTheDatabaseOpenOnlyBeforeItsFirstWriteCanBeDurable() throws SQLException {
        create(directory, 10);
        try (Database db = Derive.open(config(DerbyTableModule.inDirectory(directory))); Session s = db.openSession()) {
            s.execute("select count(*) from t");
            assertThat(cleanCloseWhileOpen(directory)).as("nothing written: a crash now leaves the clean close true").isEqualTo("true");
            s.execute("begin");
            s.execute("insert into t values (100, 99, 'u100')");
            assertThat(cleanCloseWhileOpen(directory)).as("the write is not committed yet").isEqualTo("true");
            s.execute("commit");
            assertThat(cleanCloseWhileOpen(directory)).as("a crash now must not trust the counts").isEqualTo("false");
        }
        try (Database db = Derive.open(config(DerbyTableModule.inDirectory(directory))); Session s = db.openSession()) {
            assertThat(db.rehydrateReport().lastCloseClean()).isTrue();
            assertThat(s.execute("select row_count from materialized_views()").rows().get(0).get(0))
                    .as("the count the clean close stored, with the new group").isEqualTo(11L);
        }
    }

    @Test
    void aCleanCloseOfAnOpenThatWroteNothingRunsNoStatement() {
        create(directory, 10);
        DerbyTableModule module = DerbyTableModule.inDirectory(directory);
        long atClose;
        try (Database db = Derive.open(config(module)); Session s = db.openSession()) {
            s.execute("select count(*) from m");
            atClose = module.statementsExecuted();
        }
        assertThat(module.statementsExecuted()).isEqualTo(atClose);
        assertThat(reopen(directory).report().lastCloseClean()).isTrue();
    }

    private record Reopened(RehydrateReport report, long statements) {
    }

    private static Reopened reopen(Path directory) {
        DerbyTableModule module = DerbyTableModule.inDirectory(directory);
        try (Database db = Derive.open(config(module))) {
            return new Reopened(db.rehydrateReport(), module.statementsExecuted());
        }
    }

    /** {@code rows} rows in {@code t}, 25 values of {@code v}, and three in {@code s}. */
    private static void create(Path directory, int rows) {
        try (Database db = Derive.open(config(DerbyTableModule.inDirectory(directory))); Session s = db.openSession()) {
            for (String statement : SCHEMA.split(";\\s*\\n")) {
                s.execute(statement);
            }
            s.execute("begin");
            for (int k = 0; k < rows; k++) {
                s.execute("insert into t values (" + k + ", " + (k % 25) + ", 'u" + k + "')");
            }
            s.execute("insert into s values (1, 1), (2, 2), (3, null)");
            s.execute("commit");
        }
    }

    /** What a kill leaves in the meta entries: the marker of an open database. */
    private static void markNotClosed(Path directory) throws SQLException {
        try (EmbeddedDerbyDatabase derby = EmbeddedDerbyDatabase.open(DerbyTableModule.derbyDirectory(directory));
             Connection c = derby.connection(); Statement s = c.createStatement()) {
            assertThat(s.executeUpdate("update \"DERIVE\".\"META\" set \"value\" = 'false' where \"key\" = 'clean_close'"))
                    .isEqualTo(1);
        }
    }

    /** The stored {@code clean_close} marker, read beside the open database (Derby is booted in this JVM). */
    private static String cleanCloseWhileOpen(Path directory) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:derby:" + DerbyTableModule.derbyDirectory(directory));
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("select \"value\" from \"DERIVE\".\"META\" where \"key\" = 'clean_close'")) {
            rs.next();
            return rs.getString(1);
        }
    }

    private static DatabaseConfig config(DerbyTableModule module) {
        return DatabaseConfig.named("reopen").withModule(module).withDefaultHost("derby").withDurableHost("derby");
    }
}
