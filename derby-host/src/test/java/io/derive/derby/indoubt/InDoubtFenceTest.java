package io.derive.derby.indoubt;

import io.derive.derby.DerbyTableModule;
import io.derive.engine.api.BranchId;
import io.derive.engine.api.Database;
import io.derive.engine.api.DeriveException;
import io.derive.engine.api.Session;
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

import static io.derive.derby.indoubt.DurableDirectory.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * While a branch a process left prepared is in doubt, the database is open: only what the branch
 * wrote (table {@code t}, its index, the Derby view maintained with it) and the views over that
 * wait, and a statement that needs them fails at once, before Derby is asked anything.
 */
class InDoubtFenceTest {
    private static final String SCHEMA = """
            create table t (k integer primary key, v text, n integer not null);
            create index t_by_n on t (n);
            create table u (k integer primary key, w text);
            create table elsewhere (k integer primary key);
            create materialized view derby_mv as select k, v from t where n > 0;
            create materialized view memory_mv using memory as select n, count(*) as c from t group by n;
            create materialized view over_mv using memory as select n, c from memory_mv;
            create materialized view joined as select t.k, u.w from t join u on u.k = t.k;
            create materialized view of_u as select k, w from u;
            insert into t values (1, 'one', 1), (2, 'two', 2);
            insert into u values (1, 'x'), (2, 'y');
            """;

    @TempDir
    Path directory;

    private DurableDirectory database;
    private BranchId xid;

    @BeforeEach
    void leaveABranchThatWroteTInDoubt() {
        database = new DurableDirectory(directory);
        database.run(SCHEMA);
        xid = database.leavePrepared("""
                insert into t values (3, 'three', 3);
                update t set v = 'uno' where k = 1;
                """);
    }

    @Test
    void anOpenThatFindsABranchInDoubtMarksTheDatabaseOpenAtOnce() throws SQLException {
        try (Database db = database.open()) {
            try (Connection c = DriverManager.getConnection("jdbc:derby:" + DerbyTableModule.derbyDirectory(directory));
                 Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("select \"value\" from \"DERIVE\".\"META\" where \"key\" = 'clean_close'")) {
                rs.next();
                assertThat(rs.getString(1)).as("the branch's outcome will change rows whatever else this open does")
                        .isEqualTo("false");
            }
        }
    }

    @Test
    void aTableTheBranchDidNotWriteAnswersAndTakesWrites() {
        try (Database db = database.open(); Session s = db.openSession()) {
            s.execute("insert into elsewhere values (1)");
            assertThat(rows(s, "select k from elsewhere")).containsExactly(List.of(1L));
            assertThat(rows(s, "select k, w from u order by k")).containsExactly(List.of(1L, "x"), List.of(2L, "y"));
        }
    }

    @Test
    void readingTheTableItWroteFailsAtOnceNamingTheTableAndTheBranch() {
        DerbyTableModule module = database.module();
        try (Database db = database.open(module); Session s = db.openSession()) {
            long before = module.statementsExecuted();
            assertThatThrownBy(() -> s.execute("select k from t"))
                    .isInstanceOfSatisfying(DeriveException.class, e -> assertThat(e.code()).isEqualTo(DeriveException.IN_DOUBT))
                    .hasMessageContaining("table 'main.t' waits for the outcome of in-doubt transaction " + xid);
            assertThat(module.statementsExecuted()).as("statements sent to Derby").isEqualTo(before);
        }
    }

    @Test
    void aReadThroughTheTablesIndexFailsAsAReadOfTheTable() {
        try (Database db = database.open(); Session s = db.openSession()) {
            assertThatThrownBy(() -> s.execute("select k from t where n = 1"))
                    .hasMessageContaining("table 'main.t' waits for the outcome of in-doubt transaction " + xid);
        }
    }

    @Test
    void writingTheTableItWroteFailsAtOnce() {
        DerbyTableModule module = database.module();
        try (Database db = database.open(module); Session s = db.openSession()) {
            long before = module.statementsExecuted();
            assertThatThrownBy(() -> s.execute("insert into t values (9, 'nine', 9)"))
                    .isInstanceOfSatisfying(DeriveException.class, e -> assertThat(e.code()).isEqualTo(DeriveException.IN_DOUBT))
                    .hasMessageContaining("waits for the outcome of in-doubt transaction " + xid);
            assertThat(module.statementsExecuted()).as("statements sent to Derby").isEqualTo(before);
        }
    }

    @Test
    void theDerbyViewTheBranchMaintainedWaits() {
        try (Database db = database.open(); Session s = db.openSession()) {
            assertThatThrownBy(() -> s.execute("select k from derby_mv"))
                    .isInstanceOfSatisfying(DeriveException.class, e -> assertThat(e.code()).isEqualTo(DeriveException.IN_DOUBT))
                    .hasMessageContaining("materialized view 'main.derby_mv' waits for the outcome of in-doubt transaction " + xid);
        }
    }

    @Test
    void aMemoryViewOverTheTableWaitsNamingItsSource() {
        try (Database db = database.open(); Session s = db.openSession()) {
            assertThatThrownBy(() -> s.execute("select n from memory_mv"))
                    .hasMessageContaining("materialized view 'main.memory_mv' waits for the outcome of in-doubt transaction " + xid
                            + ", which wrote its source main.t");
        }
    }

    @Test
    void aViewOverAWaitingViewWaitsToo() {
        try (Database db = database.open(); Session s = db.openSession()) {
            assertThatThrownBy(() -> s.execute("select n from over_mv"))
                    .hasMessageContaining("materialized view 'main.over_mv' waits for the outcome of in-doubt transaction " + xid
                            + ", for its source main.memory_mv, which waits too");
        }
    }

    @Test
    void aViewOverUntouchedTablesAloneAnswers() {
        try (Database db = database.open(); Session s = db.openSession()) {
            assertThat(rows(s, "select k, w from of_u order by k")).containsExactly(List.of(1L, "x"), List.of(2L, "y"));
        }
    }

    @Test
    void aWriteToAnUntouchedSourceThatAWaitingViewReadsFailsAtOnce() {
        try (Database db = database.open(); Session s = db.openSession()) {
            assertThatThrownBy(() -> s.execute("update u set w = 'z' where k = 1"))
                    .isInstanceOfSatisfying(DeriveException.class, e -> assertThat(e.code()).isEqualTo(DeriveException.IN_DOUBT))
                    .hasMessageContaining("waits for the outcome of in-doubt transaction " + xid);
            assertThat(rows(s, "select w from u where k = 1")).containsExactly(List.of("x"));
        }
    }

    @Test
    void ddlOnWhatWaitsFails() {
        try (Database db = database.open(); Session s = db.openSession()) {
            assertThatThrownBy(() -> s.execute("drop materialized view over_mv"))
                    .hasMessageContaining("materialized view 'main.over_mv' waits");
            assertThatThrownBy(() -> s.execute("alter table t rename to t2"))
                    .hasMessageContaining("table 'main.t' waits");
        }
    }

    @Test
    void otherDdlGoesOn() {
        try (Database db = database.open(); Session s = db.openSession()) {
            s.execute("create table fresh (k integer primary key)");
            s.execute("create materialized view fresh_mv as select k from fresh");
            s.execute("insert into fresh values (5)");
            assertThat(rows(s, "select k from fresh_mv")).containsExactly(List.of(5L));
        }
    }

    @Test
    void materializedViewsListsTheWaitingViewsWithoutReadingThem() {
        try (Database db = database.open(); Session s = db.openSession()) {
            assertThat(rows(s, "select name from materialized_views() order by name")).containsExactly(
                    List.of("derby_mv"), List.of("joined"), List.of("memory_mv"), List.of("of_u"), List.of("over_mv"));
        }
    }

    @Test
    void rehydrateReportSaysWhatWaitsAndForWhichBranch() {
        try (Database db = database.open(); Session s = db.openSession()) {
            assertThat(rows(s, "select name, action from rehydrate_report() where action = 'waiting' order by name"))
                    .containsExactly(List.of("derby_mv", "waiting"), List.of("joined", "waiting"), List.of("memory_mv", "waiting"),
                            List.of("over_mv", "waiting"), List.of("t", "waiting"));
            assertThat(rows(s, "select reason from rehydrate_report() where name = 'memory_mv'")).containsExactly(
                    List.of("waits for the outcome of in-doubt transaction " + xid + ", which wrote its source main.t"));
            assertThat(rows(s, "select reason from rehydrate_report() where name = 't'")).containsExactly(
                    List.of("waits for the outcome of in-doubt transaction " + xid + ", which wrote it"));
            assertThat(rows(s, "select action from rehydrate_report() where name = 'of_u'")).containsExactly(List.of("adopted"));
        }
    }

    @Test
    void aCloseWhileInDoubtLeavesTheBranchInDoubtAtTheNextOpen() {
        try (Database db = database.open(); Session s = db.openSession()) {
            s.execute("insert into elsewhere values (3)");
        }
        try (Database db = database.open(); Session s = db.openSession()) {
            assertThat(db.inDoubt()).containsExactly(xid);
            assertThatThrownBy(() -> s.execute("select k from t")).hasMessageContaining("table 'main.t' waits");
            assertThat(rows(s, "select k from elsewhere")).containsExactly(List.of(3L));
        }
    }
}
