package io.derive.derby;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.Derive;
import io.derive.engine.api.Database;
import io.derive.engine.api.RehydrateReport;
import io.derive.engine.api.Session;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The listing of Derby's tables a clean close leaves for the next open ({@link TableListing}):
 * there only between a clean close and the next open, as current as Derby's catalog when it is
 * taken, and set aside for Derby's catalog when Derby's tables changed meanwhile or it cannot be
 * read.
 */
class TableListingTest {
    @TempDir
    Path directory;

    @Test
    void aCleanCloseLeavesTheListingAndAnOpenTakesItUntilItsOwnCleanClose() {
        create("create table t (k integer primary key, v text)");
        assertThat(listing()).as("after the clean close").exists();

        try (Database db = open()) {
            assertThat(listing()).as("while open: a crash now must leave no listing").doesNotExist();
        }
        assertThat(listing()).as("after the next clean close").exists();
    }

    @Test
    void anOpenAfterACleanCloseTakesDerbysTablesFromTheListing() {
        create("create table t (k integer primary key, v text)", "insert into t values (1, 'a')");

        DerbyTableModule module = DerbyTableModule.inDirectory(directory);
        try (Database db = Derive.open(config(module)); Session s = db.openSession()) {
            assertThat(module.catalogReads()).isZero();
            assertThat(s.execute("select k, v from t").rows()).extracting(r -> r.values()).containsExactly(List.of(1L, "a"));
        }
    }

    @Test
    void theTablesAnOpenCreatesAndDropsAreInTheListingItsCloseLeaves() throws SQLException {
        create("create table t (k integer primary key, v text)", "insert into t values (1, 'a')");
        try (Database db = open(); Session s = db.openSession()) {
            s.execute("create table u (k integer primary key, w integer)");
            s.execute("insert into u values (7, 70)");
            s.execute("create materialized view m as select k, w from u");
            s.execute("drop table t");
        }

        DerbyTableModule module = DerbyTableModule.inDirectory(directory);
        try (Database db = Derive.open(config(module)); Session s = db.openSession()) {
            assertThat(module.catalogReads()).isZero();
            assertThat(db.rehydrateReport().views()).extracting(RehydrateReport.Outcome::action)
                    .containsExactly(RehydrateReport.Action.ADOPTED);
            assertThat(s.execute("select k, w from m").rows()).extracting(r -> r.values()).containsExactly(List.of(7L, 70L));
            assertThatThrownBy(() -> s.execute("select * from t")).hasMessageContaining("no such table");
        }
        assertThat(derbyTables()).as("Derby's own catalog").containsExactlyInAnyOrder("main.m", "main.u");
    }

    @Test
    void aTableCreatedBehindDerivesBackSinceTheCleanCloseMakesTheOpenReadDerbysCatalogAndSweepIt() throws SQLException {
        create("create table t (k integer primary key, v text)");
        try (EmbeddedDerbyDatabase derby = EmbeddedDerbyDatabase.open(DerbyTableModule.derbyDirectory(directory));
             Connection c = derby.connection(); Statement s = c.createStatement()) {
            s.execute("create table \"main\".\"stray\" (k integer)");
        }

        DerbyTableModule module = DerbyTableModule.inDirectory(directory);
        try (Database db = Derive.open(config(module))) {
            assertThat(module.catalogReads()).isPositive();
        }
        assertThat(derbyTables()).containsExactly("main.t");
    }

    @Test
    void anUnreadableListingIsIgnoredAndTheOpenReadsDerbysCatalog() throws IOException {
        create("create table t (k integer primary key, v text)", "insert into t values (1, 'a')");
        Files.write(listing(), new byte[] {0, 3, 'x', 'y'});

        DerbyTableModule module = DerbyTableModule.inDirectory(directory);
        try (Database db = Derive.open(config(module)); Session s = db.openSession()) {
            assertThat(module.catalogReads()).isEqualTo(1);
            assertThat(listing()).doesNotExist();
            assertThat(s.execute("select k, v from t").rows()).extracting(r -> r.values()).containsExactly(List.of(1L, "a"));
        }
    }

    private void create(String... statements) {
        try (Database db = open(); Session s = db.openSession()) {
            for (String statement : statements) {
                s.execute(statement);
            }
        }
    }

    private Database open() {
        return Derive.open(config(DerbyTableModule.inDirectory(directory)));
    }

    private Path listing() {
        return DerbyTableModule.derbyDirectory(directory).resolve(TableListing.FILE);
    }

    /** The engine's tables Derby holds outside its own schemas and the host's, as schema.table. */
    private List<String> derbyTables() throws SQLException {
        List<String> tables = new ArrayList<>();
        try (EmbeddedDerbyDatabase derby = EmbeddedDerbyDatabase.open(DerbyTableModule.derbyDirectory(directory));
             Connection c = derby.connection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("select s.schemaname, t.tablename from sys.systables t join sys.sysschemas s"
                     + " on s.schemaid = t.schemaid where t.tabletype = 'T' and s.schemaname not like 'SYS%'"
                     + " and s.schemaname <> 'DERIVE'")) {
            while (rs.next()) {
                tables.add(rs.getString(1) + "." + rs.getString(2));
            }
        }
        return tables;
    }

    private static DatabaseConfig config(DerbyTableModule module) {
        return DatabaseConfig.named("listing").withModule(module).withDefaultHost("derby").withDurableHost("derby");
    }
}
