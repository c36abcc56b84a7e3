package io.derive.derby;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.Derive;
import io.derive.engine.RehydrateMode;
import io.derive.engine.api.Database;
import io.derive.engine.api.DatabaseStatus;
import io.derive.engine.api.DeriveException;
import io.derive.engine.api.RehydrateReport;
import io.derive.engine.api.Result;
import io.derive.engine.api.Row;
import io.derive.engine.api.Session;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * A durable database opened with its refills deferred (semantics §9): the views that would be
 * refilled are left pending — reads of them and writes to their sources fail at once — until
 * {@code rehydrate materialized view} refills them, sources first; adopted views answer at once.
 */
class DurableDeferredRehydrateTest {
    /** The body {@code a} is given in the stored catalog, so that its stored rows (of its old body) must be refilled. */
    private static final String NEW_BODY_OF_A = "select k, g, v from t where v > 15";

    @TempDir
    Path directory;

    @BeforeEach
    void viewsOverViewsThatNeedARefill() throws SQLException {
        try (Database db = Derive.open(directory); Session s = db.openSession()) {
            script(s, """
                    create table t (k integer primary key, g text not null, v integer);
                    create table u (k integer primary key, w integer);
                    create table other (k integer primary key, x integer);
                    insert into t values (1, 'a', 10), (2, 'a', 20), (3, 'b', 30), (4, 'b', 40), (5, 'b', -5);
                    insert into u values (1, 3), (2, 7);
                    insert into other values (1, 1);
                    create materialized view a as select k, g, v from t where v > 0;
                    create materialized view b using memory as select k, w * 2 as w2 from u;
                    create materialized view ab as select g, count(*) as n, sum(v) as s from a group by g;
                    create materialized view abn as select g, n from ab where n > 1;
                    create materialized view kept as select k, x from other;
                    create materialized view kept_u as select k, w from u where w > 5;
                    """);
        }
        editCatalog("update \"DERIVE\".\"CATALOG\" set \"body\" = '" + NEW_BODY_OF_A + "' where \"name\" = 'a'");
    }

    @Test
    void viewsThatWouldBeRefilledArePendingInDependencyRoundsAndAdoptedOnesAnswer() {
        try (Database db = openDeferred(); Session s = db.openSession()) {
            assertThat(db.rehydrateReport().views()).extracting(RehydrateReport.Outcome::name, RehydrateReport.Outcome::action,
                    RehydrateReport.Outcome::reason).containsExactlyInAnyOrder(
                            tuple("a", RehydrateReport.Action.PENDING, "its body hash does not match"),
                            tuple("b", RehydrateReport.Action.PENDING, "its host 'memory' keeps nothing across opens"),
                            tuple("ab", RehydrateReport.Action.PENDING, "source main.a was not adopted"),
                            tuple("abn", RehydrateReport.Action.PENDING, "source main.ab was not adopted"),
                            tuple("kept", RehydrateReport.Action.ADOPTED, null),
                            tuple("kept_u", RehydrateReport.Action.ADOPTED, null));
            assertThat(rows(s, "select schema, name, round, reason, refilling from rehydrate_pending()")).containsExactly(
                    List.of("main", "a", 1L, "its body hash does not match", false),
                    List.of("main", "b", 1L, "its host 'memory' keeps nothing across opens", false),
                    List.of("main", "ab", 2L, "source main.a was not adopted", false),
                    List.of("main", "abn", 3L, "source main.ab was not adopted", false));
            assertThat(rows(s, "select name, action from rehydrate_report() where action = 'pending' order by name"))
                    .containsExactly(List.of("a", "pending"), List.of("ab", "pending"), List.of("abn", "pending"),
                            List.of("b", "pending"));
            DatabaseStatus status = db.status();
            assertThat(status.state()).isEqualTo(DatabaseStatus.State.OPEN);
            assertThat(status.pendingRehydrates()).isEqualTo(4);
            assertThat(status.detail()).endsWith("4 materialized views are being rehydrated");

            assertThat(rows(s, "select k, x from kept")).containsExactly(List.of(1L, 1L));
            assertThat(rows(s, "select k, w from kept_u")).containsExactly(List.of(2L, 7L));
            s.execute("insert into other values (2, 2)");
            assertThat(rows(s, "select k, x from kept order by k")).containsExactly(List.of(1L, 1L), List.of(2L, 2L));
        }
    }

    @Test
    void readsOfAPendingViewFailAtOnce() {
        try (Database db = openDeferred(); Session s = db.openSession()) {
            assertTimeoutPreemptively(Duration.ofSeconds(5), () -> {
                for (String view : List.of("a", "b", "ab", "abn")) {
                    assertThatThrownBy(() -> s.execute("select * from " + view)).isInstanceOf(DeriveException.class)
                            .hasMessageContaining("materialized view 'main." + view + "' is being rehydrated")
                            .extracting(e -> ((DeriveException) e).code()).isEqualTo(DeriveException.OBJECT_NOT_READY);
                }
                assertThatThrownBy(() -> s.execute("select count(*) from kept join abn on kept.k = abn.n"))
                        .hasMessageContaining("materialized view 'main.abn' is being rehydrated");
            });
        }
    }

    @Test
    void writesToTheSourcesOfAPendingViewAreRefusedAndChangeNothing() {
        try (Database db = openDeferred(); Session s = db.openSession()) {
            assertThatThrownBy(() -> s.execute("insert into t values (6, 'c', 60)"))
                    .hasMessageContaining("materialized view 'main.a' is being rehydrated");
            assertThatThrownBy(() -> s.execute("update u set w = w + 1"))
                    .hasMessageContaining("materialized view 'main.b' is being rehydrated");
            s.execute("begin");
            assertThatThrownBy(() -> s.execute("delete from t where k = 2"))
                    .hasMessageContaining("materialized view 'main.a' is being rehydrated");
            s.execute("rollback");
            assertThat(rows(s, "select count(*) from t")).containsExactly(List.of(5L));
            assertThat(rows(s, "select k, w from u order by k")).containsExactly(List.of(1L, 3L), List.of(2L, 7L));
            assertThat(rows(s, "select k, w from kept_u")).containsExactly(List.of(2L, 7L));
            assertThatThrownBy(() -> s.execute("drop materialized view abn"))
                    .hasMessageContaining("materialized view 'main.abn' is being rehydrated");
        }
    }

    @Test
    void refillsInRoundOrderMakeEveryViewEqualItsBodyAndReadableAndMaintained() throws Exception {
        try (Database db = openDeferred(); Session s = db.openSession(); Session other = db.openSession()) {
            assertThatThrownBy(() -> s.execute("rehydrate materialized view ab"))
                    .hasMessageContaining("materialized view 'main.ab' waits for the rehydrate of its source 'main.a'")
                    .extracting(e -> ((DeriveException) e).code()).isEqualTo(DeriveException.OBJECT_NOT_READY);
            assertThatThrownBy(() -> s.execute("rehydrate materialized view kept"))
                    .hasMessageContaining("materialized view 'main.kept' is not being rehydrated");
            s.execute("begin");
            assertThatThrownBy(() -> s.execute("rehydrate materialized view a"))
                    .hasMessageContaining("rehydrate materialized view is not allowed inside a transaction");
            s.execute("rollback");

            List<Result> roundOne = inParallel(s, other, "rehydrate materialized view a", "rehydrate materialized view b");
            assertThat(roundOne.get(0).rows().get(0).values()).containsExactly(3L, 1L);
            assertThat(roundOne.get(1).rows().get(0).values()).containsExactly(2L, 2L);
            assertThatThrownBy(() -> s.execute("rehydrate materialized view a"))
                    .hasMessageContaining("materialized view 'main.a' is not being rehydrated");
            assertThat(rows(s, "select name, round from rehydrate_pending()"))
                    .containsExactly(List.of("ab", 1L), List.of("abn", 2L));
            assertThatThrownBy(() -> s.execute("select * from ab")).hasMessageContaining("is being rehydrated");
            // a is readable, but a write to its source would reach ab through it.
            assertThatThrownBy(() -> s.execute("insert into t values (7, 'c', 70)"))
                    .hasMessageContaining("materialized view 'main.ab' is being rehydrated");
            assertEqualsBody(s, "a", NEW_BODY_OF_A);
            s.execute("rehydrate materialized view ab");
            s.execute("rehydrate materialized view abn");

            assertEqualsBody(s, "a", NEW_BODY_OF_A);
            assertEqualsBody(s, "b", "select k, w * 2 as w2 from u");
            assertEqualsBody(s, "ab", "select g, count(*) as n, sum(v) as s from a group by g");
            assertEqualsBody(s, "abn", "select g, n from ab where n > 1");
            assertThat(rows(s, "select g, n, s from ab order by g")).containsExactly(List.of("a", 1L, 20L), List.of("b", 2L, 70L));
            assertThat(rows(s, "select count(*) from rehydrate_pending()")).containsExactly(List.of(0L));
            assertThat(db.status().pendingRehydrates()).isZero();
            assertThat(rows(s, "select name, action, reason from rehydrate_report() where name = 'a'"))
                    .containsExactly(List.of("a", "refilled", "its body hash does not match; refilled by rehydrate materialized view"));

            s.execute("insert into t values (6, 'a', 60)");
            s.execute("update u set w = w + 1");
            assertEqualsBody(s, "a", NEW_BODY_OF_A);
            assertEqualsBody(s, "ab", "select g, count(*) as n, sum(v) as s from a group by g");
            assertEqualsBody(s, "abn", "select g, n from ab where n > 1");
            assertEqualsBody(s, "b", "select k, w * 2 as w2 from u");
        }
    }

    @Test
    void aSecondRefillOfAViewBeingRefilledFailsAtOnceAndTheFirstCompletes() throws Exception {
        try (Database db = openDeferred(); Session ddl = db.openSession(); Session first = db.openSession();
             Session second = db.openSession()) {
            // A schema change left open holds the catalog: the first refill claims its view, then waits for it.
            ddl.execute("begin");
            ddl.execute("create table holds_the_catalog (k integer primary key)");
            ExecutorService thread = Executors.newSingleThreadExecutor();
            try {
                Future<Result> refill = thread.submit(() -> first.execute("rehydrate materialized view a"));
                long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
                while (!rows(second, "select refilling from rehydrate_pending() where name = 'a'").equals(List.of(List.of(true)))) {
                    assertThat(System.nanoTime()).as("the first refill claims its view").isLessThan(deadline);
                    Thread.sleep(10);
                }
                assertThatThrownBy(() -> second.execute("rehydrate materialized view a"))
                        .hasMessageContaining("materialized view 'main.a' is already being rehydrated by another session")
                        .extracting(e -> ((DeriveException) e).code()).isEqualTo(DeriveException.OBJECT_IN_USE);
                ddl.execute("commit");
                assertThat(refill.get().rows().get(0).values()).containsExactly(3L, 1L);
            } finally {
                thread.shutdownNow();
            }
            assertEqualsBody(second, "a", NEW_BODY_OF_A);
        }
    }

    @Test
    void aReopenAfterPartOfTheRefillsRefillsOnlyWhatIsStillUntrusted() {
        try (Database db = openDeferred(); Session s = db.openSession()) {
            s.execute("rehydrate materialized view a");
        }
        try (Database db = openDeferred()) {
            assertThat(db.rehydrateReport().views()).extracting(RehydrateReport.Outcome::name, RehydrateReport.Outcome::action,
                    RehydrateReport.Outcome::reason).containsExactlyInAnyOrder(
                            tuple("a", RehydrateReport.Action.ADOPTED, null),
                            tuple("b", RehydrateReport.Action.PENDING, "its host 'memory' keeps nothing across opens"),
                            tuple("ab", RehydrateReport.Action.PENDING, "it is in the durable stale set"),
                            tuple("abn", RehydrateReport.Action.PENDING, "it is in the durable stale set"),
                            tuple("kept", RehydrateReport.Action.ADOPTED, null),
                            tuple("kept_u", RehydrateReport.Action.ADOPTED, null));
        }
        try (Database db = Derive.open(directory); Session s = db.openSession()) {
            assertThat(db.rehydrateReport().views()).extracting(RehydrateReport.Outcome::name, RehydrateReport.Outcome::action)
                    .containsExactlyInAnyOrder(tuple("a", RehydrateReport.Action.ADOPTED),
                            tuple("b", RehydrateReport.Action.REFILLED), tuple("ab", RehydrateReport.Action.REFILLED),
                            tuple("abn", RehydrateReport.Action.REFILLED), tuple("kept", RehydrateReport.Action.ADOPTED),
                            tuple("kept_u", RehydrateReport.Action.ADOPTED));
            assertThat(db.status().pendingRehydrates()).isZero();
            assertEqualsBody(s, "a", NEW_BODY_OF_A);
            assertEqualsBody(s, "ab", "select g, count(*) as n, sum(v) as s from a group by g");
            assertEqualsBody(s, "abn", "select g, n from ab where n > 1");
        }
    }

    @Test
    void aPendingViewLeftByAnOpenThatEndedWithoutRefillsIsPendingAgainAndTheInlineOpenRefillsIt() {
        try (Database db = openDeferred()) {
            assertThat(db.status().pendingRehydrates()).isEqualTo(4);
        }
        // Its stored body now hashes as the open planned it: only the durable stale set still says it is untrusted.
        try (Database db = openDeferred()) {
            assertThat(db.rehydrateReport().views()).filteredOn(o -> o.name().equals("a"))
                    .extracting(RehydrateReport.Outcome::action, RehydrateReport.Outcome::reason)
                    .containsExactly(tuple(RehydrateReport.Action.PENDING, "it is in the durable stale set"));
        }
        try (Database db = Derive.open(directory); Session s = db.openSession()) {
            assertThat(db.rehydrateReport().views()).filteredOn(o -> o.name().equals("a"))
                    .extracting(RehydrateReport.Outcome::action).containsExactly(RehydrateReport.Action.REFILLED);
            assertEqualsBody(s, "a", NEW_BODY_OF_A);
        }
    }

    @Test
    void theInlineModeRefillsEverythingAtOpenAsBefore() {
        try (Database db = Derive.open(directory); Session s = db.openSession()) {
            assertThat(db.rehydrateReport().views()).extracting(RehydrateReport.Outcome::action)
                    .doesNotContain(RehydrateReport.Action.PENDING);
            assertThat(db.status().pendingRehydrates()).isZero();
            assertThat(rows(s, "select count(*) from rehydrate_pending()")).containsExactly(List.of(0L));
            assertEqualsBody(s, "a", NEW_BODY_OF_A);
            assertEqualsBody(s, "abn", "select g, n from ab where n > 1");
        }
    }

    private Database openDeferred() {
        return Derive.open(DatabaseConfig.inDirectory(directory).withRehydrateMode(RehydrateMode.DEFERRED));
    }

    /** Runs one statement in each session at the same moment; their results in the same order. */
    private static List<Result> inParallel(Session first, Session second, String sqlOfFirst, String sqlOfSecond)
            throws Exception {
        CyclicBarrier start = new CyclicBarrier(2);
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            Future<Result> one = threads.submit(() -> {
                start.await();
                return first.execute(sqlOfFirst);
            });
            Future<Result> two = threads.submit(() -> {
                start.await();
                return second.execute(sqlOfSecond);
            });
            return List.of(one.get(), two.get());
        } finally {
            threads.shutdownNow();
        }
    }

    private static void assertEqualsBody(Session s, String view, String body) {
        assertThat(rows(s, "select * from " + view + " except " + body)).as("rows of %s its body lacks", view).isEmpty();
        assertThat(rows(s, body + " except select * from " + view)).as("rows of the body of %s it lacks", view).isEmpty();
    }

    private static void script(Session s, String script) {
        for (String statement : script.split(";\\s*\\n")) {
            if (!statement.isBlank()) {
                s.execute(statement);
            }
        }
    }

    private void editCatalog(String sql) throws SQLException {
        try (EmbeddedDerbyDatabase derby = EmbeddedDerbyDatabase.open(DerbyTableModule.derbyDirectory(directory));
             Connection c = derby.connection(); Statement st = c.createStatement()) {
            assertThat(st.executeUpdate(sql)).isEqualTo(1);
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
