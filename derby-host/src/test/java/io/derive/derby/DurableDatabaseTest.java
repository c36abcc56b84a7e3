package io.derive.derby;

import io.derive.engine.Derive;
import io.derive.engine.api.Database;
import io.derive.engine.api.DeriveException;
import io.derive.engine.api.RehydrateReport;
import io.derive.engine.api.Row;
import io.derive.engine.api.Session;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

/** A database on disk: what a close and a reopen keep, and what rehydrate does with each materialized view. */
class DurableDatabaseTest {
    @TempDir
    Path directory;

    @Test
    void reopeningRestoresEveryTableViewIndexAndMaterializedViewWithItsRows() {
        run("""
                create table customers (id integer primary key, name text not null, city text);
                create table orders (id integer primary key, customer integer references customers (id), amount integer);
                create index orders_by_customer on orders (customer);
                create view big_orders as select id, amount from orders where amount > 10;
                create materialized view spend as select customer, sum(amount) as total, count(*) as n from orders group by customer;
                insert into customers values (1, 'ann', 'oslo'), (2, 'bob', null);
                insert into orders values (10, 1, 5), (11, 1, 70), (12, 2, 30);
                """);
        try (Database db = Derive.open(directory); Session s = db.openSession()) {
            assertThat(rows(s, "select id, name, city from customers order by id"))
                    .containsExactly(List.of(1L, "ann", "oslo"), java.util.Arrays.asList(2L, "bob", null));
            assertThat(rows(s, "select id from big_orders order by id")).containsExactly(List.of(11L), List.of(12L));
            assertThat(rows(s, "select customer, total, n from spend order by customer"))
                    .containsExactly(List.of(1L, 75L, 2L), List.of(2L, 30L, 1L));
            assertThat(rows(s, "select type, name from schema() order by type, name")).containsExactly(
                    List.of("index", "orders_by_customer"), List.of("materialized_view", "spend"),
                    List.of("table", "customers"), List.of("table", "orders"), List.of("view", "big_orders"));
            s.execute("insert into orders values (13, 2, 1)");
            assertThat(rows(s, "select total from spend where customer = 2")).containsExactly(List.of(31L));
            assertThat(rows(s, "select id from orders where customer = 2 order by id")).containsExactly(List.of(12L), List.of(13L));
        }
    }

    @Test
    void aCurrentDerbyViewOverDerbySourcesIsAdoptedWithoutRunningItsBody() {
        run("""
                create table t (k integer primary key, v integer);
                insert into t values (1, 10), (2, 20);
                create materialized view m as select k, v * 2 as w from t;
                create materialized view mm as select k, w + 1 as x from m;
                """);
        try (Database db = Derive.open(directory); Session s = db.openSession()) {
            assertThat(db.rehydrateReport().views()).extracting(RehydrateReport.Outcome::name, RehydrateReport.Outcome::action)
                    .containsExactly(tuple("m", RehydrateReport.Action.ADOPTED),
                            tuple("mm", RehydrateReport.Action.ADOPTED));
            assertThat(db.rehydrateReport().lastCloseClean()).isTrue();
            assertThat(rows(s, "select name, body_evaluations from materialized_views() order by name"))
                    .containsExactly(List.of("m", 0L), List.of("mm", 0L));
            assertThat(rows(s, "select k, x from mm order by k")).containsExactly(List.of(1L, 21L), List.of(2L, 41L));
            assertThat(rows(s, "select name, action from rehydrate_report() order by name"))
                    .containsExactly(List.of("m", "adopted"), List.of("mm", "adopted"));
        }
    }

    @Test
    void aStaleViewAMemoryHostedViewAndAViewOverAMemorySourceAreRefilled() {
        run("""
                create table t (k integer primary key, v text, n integer);
                insert into t values (1, 'a', 10), (2, 'b', 20);
                create materialized view stale_one as select k, v from t where n > 15;
                create materialized view in_memory using memory as select k, v from t;
                create table volatile_source (k integer primary key, v integer) using memory;
                insert into volatile_source values (1, 5);
                create materialized view over_memory as select k, v from volatile_source;
                alter table t alter column n set data type real;
                """);
        try (Database db = Derive.open(directory); Session s = db.openSession()) {
            assertThat(db.rehydrateReport().views()).extracting(RehydrateReport.Outcome::name, RehydrateReport.Outcome::action,
                    RehydrateReport.Outcome::reason).containsExactlyInAnyOrder(
                            tuple("stale_one", RehydrateReport.Action.REFILLED, "it is in the durable stale set"),
                            tuple("in_memory", RehydrateReport.Action.REFILLED, "its host 'memory' keeps nothing across opens"),
                            tuple("over_memory", RehydrateReport.Action.REFILLED,
                                    "source main.volatile_source is not in the same derby database"));
            assertThat(rows(s, "select name, stale, body_evaluations from materialized_views() order by name")).containsExactly(
                    List.of("in_memory", false, 1L), List.of("over_memory", false, 1L), List.of("stale_one", false, 1L));
            assertThat(rows(s, "select k, v from stale_one")).containsExactly(List.of(2L, "b"));
            assertThat(rows(s, "select k, v from in_memory order by k")).containsExactly(List.of(1L, "a"), List.of(2L, "b"));
            assertThat(rows(s, "select count(*) from over_memory")).containsExactly(List.of(0L));
        }
        try (Database db = Derive.open(directory)) {
            assertThat(db.rehydrateReport().views()).filteredOn(o -> o.name().equals("stale_one"))
                    .extracting(RehydrateReport.Outcome::action).containsExactly(RehydrateReport.Action.ADOPTED);
        }
    }

    @Test
    void aViewWhoseBodyNoLongerPlansIsReportedAndItsBackingKeptAsAPlainTable() throws SQLException {
        run("""
                create table t (k integer primary key, v integer);
                insert into t values (1, 10);
                create materialized view m as select k, v from t;
                """);
        editCatalog("update \"DERIVE\".\"CATALOG\" set \"body\" = 'select k, nope from t' where \"name\" = 'm'");
        try (Database db = Derive.open(directory); Session s = db.openSession()) {
            RehydrateReport.Outcome outcome = db.rehydrateReport().views().get(0);
            assertThat(outcome.action()).isEqualTo(RehydrateReport.Action.FAILED);
            assertThat(outcome.reason()).contains("no such column: nope");
            assertThat(rows(s, "select k, v from m")).containsExactly(List.of(1L, 10L));
            assertThat(rows(s, "select count(*) from materialized_views()")).containsExactly(List.of(0L));
            s.execute("insert into m values (2, 20)");
        }
    }

    @Test
    void aCatalogOfANewerFormatFailsToOpenClearly() throws SQLException {
        run("create table t (k integer primary key)");
        editCatalog("update \"DERIVE\".\"META\" set \"value\" = '99' where \"key\" = 'format_version'");
        assertThatThrownBy(() -> Derive.open(directory)).isInstanceOf(DeriveException.class)
                .hasMessageContaining("catalog format version 99, newer than the 1 this Derive reads");
    }

    @Test
    void droppedAndRenamedObjectsStayDroppedAndRenamed() {
        run("""
                create table a (k integer primary key, v text);
                create table b (k integer primary key);
                insert into a values (1, 'x');
                alter table a rename to a2;
                drop table b;
                create table b (k integer primary key, z text);
                insert into b values (7, 'new');
                """);
        try (Database db = Derive.open(directory); Session s = db.openSession()) {
            assertThat(rows(s, "select k, v from a2")).containsExactly(List.of(1L, "x"));
            assertThat(rows(s, "select k, z from b")).containsExactly(List.of(7L, "new"));
            assertThatThrownBy(() -> s.execute("select * from a")).hasMessageContaining("no such table: a");
        }
    }

    @Test
    void renamedSourcesAndTheBodiesThatFollowedThemAreWhatTheNextOpenReads() {
        run("""
                create table t (k integer primary key, g text, v integer);
                insert into t values (1, 'a', 10), (2, 'a', 20), (3, 'b', 30);
                create view w as select k, g from t where v > 15;
                create materialized view m as select g, count(*) as n from t group by g;
                create materialized view mm as select g, n from m where n > 1;
                alter table t rename to t2;
                alter table t2 rename column g to grp;
                """);
        try (Database db = Derive.open(directory); Session s = db.openSession()) {
            assertThat(db.rehydrateReport().views()).extracting(RehydrateReport.Outcome::name, RehydrateReport.Outcome::action)
                    .containsExactly(tuple("m", RehydrateReport.Action.ADOPTED), tuple("mm", RehydrateReport.Action.ADOPTED));
            assertThat(rows(s, "select name, sql from schema() where name in ('w', 'mm') order by name")).containsExactly(
                    List.of("mm", "create table main.mm (grp text not null, n integer, primary key (grp)) using derby"
                            + " maintained as select grp, n from m where n > 1"),
                    List.of("w", "create view main.w as select k, grp from t2 where v > 15"));
            s.execute("insert into t2 values (4, 'b', 40)");
            assertThat(rows(s, "select grp, n from mm order by grp")).containsExactly(List.of("a", 2L), List.of("b", 2L));
            assertThat(rows(s, "select k, grp from w order by k"))
                    .containsExactly(List.of(2L, "a"), List.of(3L, "b"), List.of(4L, "b"));
        }
    }

    @Test
    void rolledBackDdlLeavesNothingForTheNextOpen() {
        try (Database db = Derive.open(directory); Session s = db.openSession()) {
            s.execute("create table kept (k integer primary key)");
            s.execute("begin");
            s.execute("create table dropped_by_rollback (k integer primary key)");
            s.execute("insert into kept values (1)");
            s.execute("rollback");
        }
        try (Database db = Derive.open(directory); Session s = db.openSession()) {
            assertThat(rows(s, "select name from schema()")).containsExactly(List.of("kept"));
            assertThat(rows(s, "select count(*) from kept")).containsExactly(List.of(0L));
        }
    }

    @Test
    void aTableWhoseStorageIsGoneFailsTheOpenInsteadOfComingBackEmpty() throws SQLException {
        run("""
                create table precious (k integer primary key);
                insert into precious values (1);
                """);
        try (EmbeddedDerbyDatabase derby = EmbeddedDerbyDatabase.open(DerbyTableModule.derbyDirectory(directory));
             Connection c = derby.connection(); Statement s = c.createStatement()) {
            s.execute("drop table \"main\".\"precious\"");
        }
        assertThatThrownBy(() -> Derive.open(directory)).isInstanceOf(DeriveException.class)
                .hasMessageContaining("table main.precious: its storage \"main\".\"precious\" is missing");
    }

    @Test
    void storageNoTableUsesIsReleasedAtTheNextOpen() throws SQLException {
        run("create table kept (k integer primary key)");
        try (EmbeddedDerbyDatabase derby = EmbeddedDerbyDatabase.open(DerbyTableModule.derbyDirectory(directory));
             Connection c = derby.connection(); Statement s = c.createStatement()) {
            s.execute("create table \"main\".\"left_by_a_crash\" (\"$key\" varchar(10) for bit data primary key)");
        }
        Derive.open(directory).close();
        try (EmbeddedDerbyDatabase derby = EmbeddedDerbyDatabase.open(DerbyTableModule.derbyDirectory(directory));
             Connection c = derby.connection();
             java.sql.ResultSet rs = c.getMetaData().getTables(null, "main", null, new String[]{"TABLE"})) {
            List<String> tables = new ArrayList<>();
            while (rs.next()) {
                tables.add(rs.getString("TABLE_NAME"));
            }
            assertThat(tables).containsExactly("kept");
        }
    }

    @Test
    void aCheckReadingATableTheCatalogReplaysLaterStillHoldsAfterReopen() {
        run("""
                create table q (x integer primary key);
                create table t (k integer primary key, n integer);
                create table r (k integer primary key, n integer, constraint listed check (n in (select x from q)))
                  maintained as select k, n from t;
                drop table q;
                create table q (x integer primary key);
                insert into q values (1);
                insert into t values (1, 1);
                """);
        try (Database db = Derive.open(directory); Session s = db.openSession()) {
            assertThat(db.rehydrateReport().views()).extracting(RehydrateReport.Outcome::name).containsExactly("r");
            assertThatThrownBy(() -> s.execute("insert into t values (2, 2)"))
                    .hasMessageContaining("CHECK constraint failed: listed (n in (select x from q)) — row derived into"
                            + " maintained table 'main.r' violates its declared constraint");
            s.execute("insert into q values (2)");
            s.execute("insert into t values (2, 2)");
            assertThat(rows(s, "select k, n from r order by k")).containsExactly(List.of(1L, 1L), List.of(2L, 2L));
        }
    }

    @Test
    void aNamedUniqueConstraintOfAMaintainedTableKeepsItsNameInTheAttributedErrorAfterReopen() {
        run("""
                create table t (k integer primary key, v integer);
                create table m (k integer primary key, v integer, constraint one_v unique (v)) maintained as select k, v from t;
                insert into t values (1, 10);
                """);
        try (Database db = Derive.open(directory); Session s = db.openSession()) {
            assertThatThrownBy(() -> s.execute("insert into t values (2, 10)"))
                    .hasMessageContaining("UNIQUE constraint failed: one_v (v) — row derived into maintained table 'main.m'");
            assertThat(rows(s, "select k, v from m")).containsExactly(List.of(1L, 10L));
        }
    }

    @Test
    void aSourceColumnThatDroppedNotNullIsNullableInTheViewsOverItAfterReopen() {
        run("""
                create table t (k integer primary key, w text not null);
                insert into t values (1, 'x');
                create materialized view m as select k, w from t;
                create materialized view mm as select k, w from m where k > 0;
                alter table t alter column w drop not null;
                insert into t values (2, null);
                """);
        try (Database db = Derive.open(directory); Session s = db.openSession()) {
            assertThat(db.rehydrateReport().views()).extracting(RehydrateReport.Outcome::name, RehydrateReport.Outcome::action)
                    .containsExactly(tuple("m", RehydrateReport.Action.ADOPTED), tuple("mm", RehydrateReport.Action.ADOPTED));
            assertThat(rows(s, "select name, sql from schema() where type = 'materialized_view' order by name")).containsExactly(
                    List.of("m", "create table main.m (k integer not null, w text, primary key (k)) using derby"
                            + " maintained as select k, w from t"),
                    List.of("mm", "create table main.mm (k integer not null, w text, primary key (k)) using derby"
                            + " maintained as select k, w from m where k > 0"));
            s.execute("insert into t values (3, null)");
            assertThat(rows(s, "select k, w from mm order by k")).containsExactly(List.of(1L, "x"),
                    java.util.Arrays.asList(2L, null), java.util.Arrays.asList(3L, null));
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

    private void editCatalog(String sql) throws SQLException {
        try (EmbeddedDerbyDatabase derby = EmbeddedDerbyDatabase.open(DerbyTableModule.derbyDirectory(directory));
             Connection c = derby.connection(); Statement s = c.createStatement()) {
            assertThat(s.executeUpdate(sql)).isEqualTo(1);
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
