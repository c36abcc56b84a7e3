package io.derive.derby.indoubt;

import io.derive.engine.api.BranchId;
import io.derive.engine.api.Database;
import io.derive.engine.api.RehydrateReport;
import io.derive.engine.api.Session;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;

import static io.derive.derby.indoubt.DurableDirectory.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

/**
 * When the transaction manager decides a branch a process left in doubt, what waited for it
 * opens: its tables with the decided rows, their Derby views adopted (the branch maintained
 * them), memory views refilled from the decided rows; the rehydrate report says so.
 */
class InDoubtResolutionTest {
    private static final String SCHEMA = """
            create table t (k integer primary key, v text, n integer not null);
            create index t_by_n on t (n);
            create table u (k integer primary key, w text);
            create materialized view derby_mv as select k, v from t where n > 0;
            create materialized view memory_mv using memory as select n, count(*) as c from t group by n;
            create materialized view over_memory as select n, c from memory_mv where c > 0;
            create materialized view of_u as select k, w from u;
            insert into t values (1, 'one', 1), (2, 'two', 2);
            insert into u values (1, 'x');
            """;
    private static final String WRITE_T = """
            insert into t values (3, 'three', 3);
            update t set v = 'uno', n = 2 where k = 1;
            """;

    @TempDir
    Path directory;

    private DurableDirectory database;

    @BeforeEach
    void createTheSchema() {
        database = new DurableDirectory(directory);
        database.run(SCHEMA);
    }

    @Test
    void aCommitOpensTheTableWithTheBranchsRows() {
        BranchId xid = database.leavePrepared(WRITE_T);
        try (Database db = database.open(); Session s = db.openSession()) {
            db.commitInDoubt(xid);
            assertThat(rows(s, "select k, v, n from t order by k")).containsExactly(
                    List.of(1L, "uno", 2L), List.of(2L, "two", 2L), List.of(3L, "three", 3L));
            assertThat(rows(s, "select k from t where n = 2 order by k")).containsExactly(List.of(1L), List.of(2L));
            s.execute("insert into t values (4, 'four', 4)");
            assertThat(rows(s, "select count(*) from t")).containsExactly(List.of(4L));
            assertThat(db.inDoubt()).isEmpty();
        }
    }

    @Test
    void aCommitAdoptsTheDerbyViewAndRefillsTheMemoryViewsFromTheCommittedRows() {
        BranchId xid = database.leavePrepared(WRITE_T);
        try (Database db = database.open(); Session s = db.openSession()) {
            db.commitInDoubt(xid);
            assertEqualsItsBody(s, "derby_mv", "select k, v from t where n > 0");
            assertEqualsItsBody(s, "memory_mv", "select n, count(*) as c from t group by n");
            assertEqualsItsBody(s, "over_memory", "select n, c from memory_mv where c > 0");
            assertThat(rows(s, "select n, c from memory_mv order by n")).containsExactly(List.of(2L, 2L), List.of(3L, 1L));
            assertThat(db.rehydrateReport().views()).extracting(RehydrateReport.Outcome::name, RehydrateReport.Outcome::action)
                    .containsExactlyInAnyOrder(tuple("derby_mv", RehydrateReport.Action.ADOPTED),
                            tuple("memory_mv", RehydrateReport.Action.REFILLED),
                            tuple("over_memory", RehydrateReport.Action.REFILLED),
                            tuple("of_u", RehydrateReport.Action.ADOPTED));
        }
    }

    @Test
    void aRollbackOpensTheTableAndItsViewsWithoutTheBranchsRows() {
        BranchId xid = database.leavePrepared(WRITE_T);
        try (Database db = database.open(); Session s = db.openSession()) {
            db.rollbackInDoubt(xid);
            assertThat(rows(s, "select k, v, n from t order by k")).containsExactly(List.of(1L, "one", 1L), List.of(2L, "two", 2L));
            assertThat(rows(s, "select count(*) from t")).containsExactly(List.of(2L));
            assertEqualsItsBody(s, "derby_mv", "select k, v from t where n > 0");
            assertEqualsItsBody(s, "memory_mv", "select n, count(*) as c from t group by n");
            assertThat(rows(s, "select n, c from memory_mv order by n")).containsExactly(List.of(1L, 1L), List.of(2L, 1L));
        }
    }

    @Test
    void theReportSaysWhatWasDoneOnceTheBranchWasDecided() {
        BranchId xid = database.leavePrepared(WRITE_T);
        try (Database db = database.open(); Session s = db.openSession()) {
            db.commitInDoubt(xid);
            assertThat(rows(s, "select action from rehydrate_report() where action = 'waiting'")).isEmpty();
            assertThat(rows(s, "select action, reason from rehydrate_report() where name = 't'")).containsExactly(
                    List.of("counted", "counted once in-doubt transaction " + xid + " was committed"));
            assertThat(rows(s, "select action, reason from rehydrate_report() where name = 'memory_mv'")).containsExactly(
                    List.of("refilled", "its host 'memory' keeps nothing across opens; refilled once in-doubt transaction "
                            + xid + " was committed"));
        }
    }

    @Test
    void viewsWorkAsMaintainedViewsAfterTheDecision() {
        BranchId xid = database.leavePrepared(WRITE_T);
        try (Database db = database.open(); Session s = db.openSession()) {
            db.commitInDoubt(xid);
            s.execute("delete from t where k = 3");
            s.execute("insert into t values (5, 'five', 2)");
            assertEqualsItsBody(s, "derby_mv", "select k, v from t where n > 0");
            assertEqualsItsBody(s, "memory_mv", "select n, count(*) as c from t group by n");
            assertEqualsItsBody(s, "over_memory", "select n, c from memory_mv where c > 0");
        }
    }

    @Test
    void twoBranchesThatWroteDifferentTablesAreDecidedApart() {
        BranchId first = database.leavePrepared(WRITE_T);
        BranchId second;
        try (Database db = database.open()) {
            assertThat(db.inDoubt()).containsExactly(first);
        }
        second = database.leavePrepared("insert into u values (2, 'y')");
        try (Database db = database.open(); Session s = db.openSession()) {
            assertThat(db.inDoubt()).containsExactlyInAnyOrder(first, second);
            assertThatThrownBy(() -> s.execute("select k from u")).hasMessageContaining("table 'main.u' waits for the outcome of "
                    + "in-doubt transaction " + second);
            db.rollbackInDoubt(second);
            assertThat(rows(s, "select k, w from of_u order by k")).containsExactly(List.of(1L, "x"));
            assertThatThrownBy(() -> s.execute("select k from t")).hasMessageContaining("table 'main.t' waits for the outcome of "
                    + "in-doubt transaction " + first);
            db.commitInDoubt(first);
            assertThat(rows(s, "select count(*) from t")).containsExactly(List.of(3L));
            assertEqualsItsBody(s, "memory_mv", "select n, count(*) as c from t group by n");
        }
    }

    @Test
    void aDecidedBranchLeavesNoRowInTheManifest() throws SQLException {
        BranchId xid = database.leavePrepared(WRITE_T);
        assertThat(database.derbyRows("select \"wrote\" from \"DERIVE\".\"IN_DOUBT\" order by 1")).containsExactly(
                List.of("\"main\".\"derby_mv\""), List.of("\"main\".\"over_memory\""), List.of("\"main\".\"t\""),
                List.of("\"main\".\"t$ix$t_by_n\""));
        try (Database db = database.open()) {
            db.commitInDoubt(xid);
        }
        assertThat(database.derbyRows("select \"xid\" from \"DERIVE\".\"IN_DOUBT\"")).isEmpty();
    }

    @Test
    void aManifestRowOfABranchDerbyNoLongerHoldsIsIgnoredAndDeleted() throws Exception {
        BranchId xid = database.leavePrepared("insert into u values (2, 'y')");
        database.rollBackInDerby(xid);
        assertThat(database.derbyRows("select distinct \"xid\" from \"DERIVE\".\"IN_DOUBT\"")).containsExactly(List.of(xid.toString()));
        try (Database db = database.open(); Session s = db.openSession()) {
            assertThat(db.inDoubt()).isEmpty();
            assertThat(rows(s, "select k, w from u")).containsExactly(List.of(1L, "x"));
        }
        assertThat(database.derbyRows("select \"xid\" from \"DERIVE\".\"IN_DOUBT\"")).isEmpty();
    }

    @Test
    void aBranchThatChangedTheCatalogKeepsTheWholeDatabaseWaitingUntilItIsDecided() {
        BranchId xid = database.leavePrepared("""
                create table w (k integer primary key);
                insert into w values (7);
                """);
        try (Database db = database.open(); Session s = db.openSession()) {
            assertThatThrownBy(() -> s.execute("select k from u")).hasMessageContaining("waits for the outcome of in-doubt "
                    + "transaction " + xid + ", which a process left prepared and which changed its catalog");
            db.commitInDoubt(xid);
            assertThat(rows(s, "select k from w")).containsExactly(List.of(7L));
            assertThat(rows(s, "select k from u")).containsExactly(List.of(1L));
        }
    }

    @Test
    void aBranchThatChangedTheCatalogAndOneThatDidNotOpenInTurn() {
        BranchId dml = database.leavePrepared(WRITE_T);
        BranchId ddl;
        try (Database db = database.open(); Session s = db.openSession()) {
            s.begin(new BranchId(4711, new byte[] {9}, new byte[] {1}));
            s.execute("create table w (k integer primary key)");
            s.prepareCommit();
            ddl = new BranchId(4711, new byte[] {9}, new byte[] {1});
        }
        try (Database db = database.open(); Session s = db.openSession()) {
            assertThatThrownBy(() -> s.execute("select k from u")).hasMessageContaining("changed its catalog");
            db.rollbackInDoubt(ddl);
            assertThat(rows(s, "select k from u")).containsExactly(List.of(1L));
            assertThatThrownBy(() -> s.execute("select k from t")).hasMessageContaining("table 'main.t' waits");
            db.commitInDoubt(dml);
            assertThat(rows(s, "select count(*) from t")).containsExactly(List.of(3L));
        }
    }

    @Test
    void aViewThatCannotBeRefilledOnceItsBranchIsDecidedStaysFencedUntilTheNextOpen() {
        BranchId xid = database.leavePrepared(WRITE_T);
        try (Database db = database.open(Duration.ofMillis(200)); Session s = db.openSession(); Session writer = db.openSession()) {
            writer.begin();
            writer.execute("create table holds_the_catalog (k integer primary key)");
            db.commitInDoubt(xid);
            assertThat(rows(s, "select count(*) from t")).containsExactly(List.of(3L));
            assertEqualsItsBody(s, "derby_mv", "select k, v from t where n > 0");
            assertThatThrownBy(() -> s.execute("select n from memory_mv")).hasMessageContaining(
                    "materialized view 'main.memory_mv' could not be refilled once in-doubt transaction " + xid + " was committed");
            assertThatThrownBy(() -> s.execute("select n from over_memory")).hasMessageContaining(
                    "its source main.memory_mv could not be refilled");
            assertThat(rows(s, "select name, action from rehydrate_report() where name in ('memory_mv', 'over_memory') order by name"))
                    .containsExactly(List.of("memory_mv", "failed"), List.of("over_memory", "failed"));
            writer.rollback();
        }
        try (Database db = database.open(); Session s = db.openSession()) {
            assertEqualsItsBody(s, "memory_mv", "select n, count(*) as c from t group by n");
            assertEqualsItsBody(s, "over_memory", "select n, c from memory_mv where c > 0");
        }
    }

    /** The view's rows are its body's rows: no row of either is missing from the other. */
    private static void assertEqualsItsBody(Session s, String view, String body) {
        assertThat(rows(s, "select * from " + view + " except " + body)).as(view + " beyond its body").isEmpty();
        assertThat(rows(s, body + " except select * from " + view)).as(view + " missing body rows").isEmpty();
        assertThat(rows(s, "select count(*) from " + view)).isEqualTo(rows(s, "select count(*) from (" + body + ")"));
    }
}
