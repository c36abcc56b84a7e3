package io.derive.engine.contract;

import io.derive.engine.api.BranchId;
import io.derive.engine.api.DeriveException;
import io.derive.engine.api.Result;
import io.derive.engine.api.Session;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link Session#cancel()} from another thread: the statement running now stops at its next row
 * with {@link DeriveException#CANCELED}, a canceled transaction runs nothing more and publishes
 * nothing, and a cancel with nothing to cancel changes nothing.
 *
 * <p>The statements canceled here never end on their own. In autocommit a cancel before the
 * statement starts does nothing, so one that ends was stopped while it ran; in a transaction a
 * cancel that lands first fails it at once, which the contract allows as well.
 */
public abstract class CancelContract extends HostContractTest {
    private static final String COUNT_FOREVER = """
            with recursive c(x) as (select 1 union all select x + 1 from c)
            select count(*) from c""";
    /** Eight billion rows out of three scans of {@code big}: longer than any test runs. */
    private static final String COUNT_CROSS_JOIN = "select count(*) from big a cross join big b cross join big c";

    private final ExecutorService sessionThread = Executors.newSingleThreadExecutor();

    @BeforeEach
    void tables() {
        script("""
                create table t (k integer primary key);
                create table big (k integer primary key, v integer);
                insert into big select value, value % 7 from generate_series(1, 2000);
                """);
    }

    @AfterEach
    void stopSessionThread() {
        sessionThread.shutdownNow();
    }

    @Test
    void aRecursiveQueryCanceledWhileItRunsFailsWithCanceledNamingTheDatabaseAtTheStatement() throws Exception {
        DeriveException e = canceledWhileRunning(COUNT_FOREVER);

        assertThat(e.code()).isEqualTo(DeriveException.CANCELED);
        assertThat(e).hasMessageMatching(
                "the transaction of session \\d+ of database '" + db.name() + "' was canceled at 1:1");
        assertThat(session.inTransaction()).isFalse();
    }

    @Test
    void aSeriesCanceledWhileItRunsFailsWithCanceled() throws Exception {
        DeriveException e = canceledWhileRunning("select count(*) from generate_series(1, 9223372036854775807)");

        assertThat(e.code()).isEqualTo(DeriveException.CANCELED);
    }

    @Test
    void aCanceledStatementLeavesTheSessionReadyForTheNextOne() throws Exception {
        canceledWhileRunning(COUNT_FOREVER);

        session.execute("insert into t values (1)");
        assertThat(rows("select k from t")).containsExactly(row(1L));
    }

    @Test
    void aCanceledJoinInATransactionFailsAndRollbackPublishesNoneOfTheTransactionsWrites() throws Exception {
        script("""
                begin;
                insert into t values (1);
                """);

        DeriveException e = canceledWhileRunning(COUNT_CROSS_JOIN);
        assertThat(e.code()).isEqualTo(DeriveException.CANCELED);
        assertThat(session.inTransaction()).isTrue();
        session.rollback();

        assertThat(rows("select k from t")).isEmpty();
        try (Session other = db.openSession()) {
            assertThat(rows(other, "select k from t")).isEmpty();
        }
    }

    @Test
    void aCanceledInsertSelectInATransactionWritesNothing() throws Exception {
        script("""
                create table copy (n integer);
                begin;
                insert into t values (1);
                """);

        DeriveException e = canceledWhileRunning("insert into copy " + COUNT_CROSS_JOIN);
        assertThat(e.code()).isEqualTo(DeriveException.CANCELED);
        session.rollback();

        assertThat(rows("select n from copy")).isEmpty();
        assertThat(rows("select k from t")).isEmpty();
    }

    @Test
    void everyLaterStatementOfACanceledTransactionFailsAtOnceUntilRollback() {
        script("""
                begin;
                insert into t values (1);
                """);
        session.cancel();

        for (String statement : new String[] {"select 1", "insert into t values (2)", "savepoint s", "begin"}) {
            assertCanceled(() -> session.execute(statement));
        }
        assertThat(session.inTransaction()).isTrue();

        session.execute("rollback");
        assertThat(session.inTransaction()).isFalse();
        assertThat(rows("select k from t")).isEmpty();
    }

    @Test
    void theTransactionAfterARollbackOfACanceledOneIsNotCanceled() {
        script("""
                begin;
                insert into t values (1);
                """);
        session.cancel();
        session.rollback();

        script("""
                begin;
                insert into t values (2);
                commit;
                """);
        assertThat(rows("select k from t")).containsExactly(row(2L));
    }

    @Test
    void commitOfACanceledTransactionFailsRollsItBackAndPublishesNothing() {
        script("""
                begin;
                insert into t values (1);
                """);
        session.cancel();

        assertCanceled(session::commit);
        assertThat(session.inTransaction()).isFalse();
        try (Session other = db.openSession()) {
            assertThat(rows(other, "select k from t")).isEmpty();
        }
    }

    @Test
    void commitOfACanceledReadOnlyTransactionFailsToo() {
        script("""
                begin;
                select count(*) from big;
                """);
        session.cancel();

        assertCanceled(() -> session.execute("commit"));
        assertThat(session.inTransaction()).isFalse();
    }

    @Test
    void prepareOfACanceledBranchFailsRollsItBackAndLeavesNothingInDoubt() {
        session.begin(new BranchId(0x4465, "cancel".getBytes(StandardCharsets.UTF_8),
                "branch-1".getBytes(StandardCharsets.UTF_8)));
        session.execute("insert into t values (1)");
        session.cancel();

        assertCanceled(session::prepareCommit);
        assertThat(session.inTransaction()).isFalse();
        assertThat(db.inDoubt()).isEmpty();
        assertThat(rows("select k from t")).isEmpty();
    }

    @Test
    void aCancelWithNothingRunningDoesNotCancelTheNextStatement() {
        session.cancel();

        session.execute("insert into t values (1)");
        assertThat(rows("select k from t")).containsExactly(row(1L));
    }

    @Test
    void aCancelAfterACommitDoesNotCancelTheNextTransaction() {
        script("""
                begin;
                insert into t values (1);
                commit;
                """);
        session.cancel();

        script("""
                begin;
                insert into t values (2);
                commit;
                """);
        assertThat(rows("select k from t")).containsExactly(row(1L), row(2L));
    }

    private static void assertCanceled(ThrowingCallable call) {
        assertThatThrownBy(call).isInstanceOf(DeriveException.class)
                .satisfies(e -> assertThat(((DeriveException) e).code()).isEqualTo(DeriveException.CANCELED));
    }

    /**
     * Runs {@code sql} on the session from a thread of its own and cancels it from this one,
     * again and again, until the statement ends; returns how it failed.
     */
    private DeriveException canceledWhileRunning(String sql) throws Exception {
        Future<Result> running = sessionThread.submit(() -> session.execute(sql));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            session.cancel();
            try {
                running.get(10, TimeUnit.MILLISECONDS);
                throw new AssertionError("the statement ended without failing: " + sql);
            } catch (ExecutionException e) {
                assertThat(e.getCause()).isInstanceOf(DeriveException.class);
                return (DeriveException) e.getCause();
            } catch (TimeoutException stillRunning) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("the statement did not stop within 30 s of being canceled: " + sql);
                }
            }
        }
    }
}
