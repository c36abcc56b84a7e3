package io.derive.engine.contract;

import io.derive.engine.api.DeriveException;
import io.derive.engine.api.Session;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Writers lock what they write and what their checks read, not the database (issue 17): writers
 * of disjoint rows, tables and groups run side by side; writers of one row, group or value, and
 * a check against a concurrent change of what it relies on, wait for each other and end as if
 * one had run after the other; a cycle of waits fails one side at once.
 *
 * <p>A test that needs one session to wait for another starts it on a thread and waits until
 * {@code locks()} lists it as a waiter, so no step depends on timing.
 */
public abstract class RowLockContract extends HostContractTest {
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final List<Session> others = new ArrayList<>();

    @AfterEach
    void stopThreads() {
        threads.shutdownNow();
        others.forEach(Session::close);
    }

    /** How many increments each of 8 threads makes in the lost-update test. */
    protected int incrementsPerThread() {
        return 1000;
    }

    private Session other() {
        Session s = db.openSession();
        others.add(s);
        return s;
    }

    private CompletableFuture<Void> later(Session s, String sql, Object... parameters) {
        return CompletableFuture.runAsync(() -> s.execute(sql, parameters), threads);
    }

    /** Waits until some transaction is listed as waiting for a lock. */
    private void awaitAWaiter() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (rows("select count(*) from locks() where waiting").get(0).get(0).equals(0L)) {
            assertThat(System.nanoTime()).as("a transaction starts waiting within 30 s").isLessThan(deadline);
            Thread.sleep(5);
        }
    }

    @Test
    void writersOfDisjointTablesCommitWhileTheOtherIsOpen() {
        script("""
                create table a (k integer primary key, v integer);
                create table b (k integer primary key, v integer);
                begin;
                insert into a values (1, 1);
                """);
        Session other = other();
        other.begin();
        other.execute("insert into b values (1, 1)");
        other.commit();
        session.commit();

        assertThat(rows("select (select count(*) from a), (select count(*) from b)")).containsExactly(row(1L, 1L));
    }

    @Test
    void writersOfDifferentGroupsOfOneGroupViewCommitWhileTheOtherIsOpen() {
        script("""
                create table src (k integer primary key, g integer not null, v integer not null);
                create materialized view per_group as select g, count(*) as n, sum(v) as total from src group by g;
                insert into src values (1, 1, 10), (2, 2, 20);
                begin;
                insert into src values (3, 1, 30);
                """);
        Session other = other();
        other.execute("insert into src values (4, 2, 40)");
        other.execute("update src set v = v + 1 where k = 2");
        session.commit();

        assertThat(rows("select g, n, total from per_group order by g")).containsExactly(row(1L, 2L, 40L), row(2L, 2L, 61L));
    }

    @Test
    void aWriterOfTheSameGroupWaitsAndThenCountsBothRows() throws Exception {
        script("""
                create table src (k integer primary key, g integer not null, v integer not null);
                create materialized view per_group as select g, count(*) as n, sum(v) as total from src group by g;
                begin;
                insert into src values (1, 1, 10);
                """);
        CompletableFuture<Void> second = later(other(), "insert into src values (2, 1, 20)");
        awaitAWaiter();
        assertThat(second).isNotDone();

        session.commit();
        second.get(30, TimeUnit.SECONDS);

        assertThat(rows("select g, n, total from per_group")).containsExactly(row(1L, 2L, 30L));
    }

    @Test
    void incrementsFromEightThreadsLoseNoUpdate() throws Exception {
        script("""
                create table counter (id integer primary key, n integer not null);
                create materialized view doubled as select id, n * 2 as twice from counter;
                insert into counter values (1, 0);
                """);
        int each = incrementsPerThread();
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> done = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            Session s = other();
            done.add(threads.submit(() -> {
                start.await();
                for (int i = 0; i < each; i++) {
                    s.execute("update counter set n = n + 1 where id = 1");
                }
                return null;
            }));
        }
        start.countDown();
        for (Future<?> f : done) {
            f.get(300, TimeUnit.SECONDS);
        }

        assertThat(rows("select n, (select twice from doubled) from counter")).containsExactly(row(8L * each, 16L * each));
    }

    @Test
    void aParentDeletedWhileAChildIsInsertedIsRefusedOnceTheChildCommits() throws Exception {
        script("""
                create table parent (id integer primary key);
                create table child (id integer primary key, parent integer references parent (id));
                insert into parent values (1);
                begin;
                insert into child values (10, 1);
                """);
        CompletableFuture<Void> delete = later(other(), "delete from parent where id = 1");
        awaitAWaiter();

        session.commit();

        assertThatThrownBy(() -> delete.get(30, TimeUnit.SECONDS)).hasCauseInstanceOf(DeriveException.class)
                .hasMessageContaining("FOREIGN KEY constraint failed");
        assertThat(rows("select (select count(*) from parent), (select count(*) from child)")).containsExactly(row(1L, 1L));
    }

    @Test
    void aChildInsertedWhileItsParentIsDeletedIsRefusedOnceTheDeleteCommits() throws Exception {
        script("""
                create table parent (id integer primary key);
                create table child (id integer primary key, parent integer references parent (id));
                insert into parent values (1);
                begin;
                delete from parent where id = 1;
                """);
        CompletableFuture<Void> insert = later(other(), "insert into child values (10, 1)");
        awaitAWaiter();

        session.commit();

        assertThatThrownBy(() -> insert.get(30, TimeUnit.SECONDS)).hasCauseInstanceOf(DeriveException.class)
                .hasMessageContaining("FOREIGN KEY constraint failed");
        assertThat(rows("select (select count(*) from parent), (select count(*) from child)")).containsExactly(row(0L, 0L));
    }

    @Test
    void twoInsertsOfOneUniqueValueUnderDifferentKeysCannotBothCommit() throws Exception {
        script("""
                create table t (k integer primary key, u text unique);
                begin;
                insert into t values (1, 'x');
                """);
        CompletableFuture<Void> second = later(other(), "insert into t values (2, 'x')");
        awaitAWaiter();

        session.commit();

        assertThatThrownBy(() -> second.get(30, TimeUnit.SECONDS)).hasCauseInstanceOf(DeriveException.class)
                .hasMessageContaining("UNIQUE constraint failed: t.u");
        assertThat(rows("select k from t")).containsExactly(row(1L));
    }

    @Test
    void aUniqueValueFreedByAnotherTransactionIsTakenOnceItCommits() throws Exception {
        script("""
                create table t (k integer primary key, u text unique);
                insert into t values (1, 'x');
                begin;
                update t set u = 'y' where k = 1;
                """);
        CompletableFuture<Void> second = later(other(), "insert into t values (2, 'x')");
        awaitAWaiter();

        session.commit();
        second.get(30, TimeUnit.SECONDS);

        assertThat(rows("select k, u from t order by k")).containsExactly(row(1L, "y"), row(2L, "x"));
    }

    @Test
    void aJoinRowOverALookupRowChangedMeanwhileShowsTheChange() throws Exception {
        script("""
                create table dim (d integer primary key, w integer not null);
                create table src (k integer primary key, d integer not null references dim (d), v integer not null);
                create materialized view joined as select s.k, s.v, m.w from src s join dim m on m.d = s.d;
                insert into dim values (0, 1);
                begin;
                insert into src values (1, 0, 5);
                """);
        CompletableFuture<Void> update = later(other(), "update dim set w = 99 where d = 0");
        awaitAWaiter();

        session.commit();
        update.get(30, TimeUnit.SECONDS);

        assertThat(rows("select k, v, w from joined")).containsExactly(row(1L, 5L, 99L));
    }

    @Test
    void aCycleOfWaitsFailsOneSideAtOnceWithTheDeadlockError() throws Exception {
        script("""
                create table t (k integer primary key, v integer);
                insert into t values (1, 0), (2, 0);
                begin;
                update t set v = 1 where k = 1;
                """);
        Session other = other();
        other.begin();
        other.execute("update t set v = 2 where k = 2");
        CompletableFuture<Void> otherWaits = later(other, "update t set v = 2 where k = 1");
        awaitAWaiter();

        assertThatThrownBy(() -> session.execute("update t set v = 1 where k = 2"))
                .isInstanceOfSatisfying(DeriveException.class, e -> {
                    assertThat(e.code()).isEqualTo(DeriveException.DEADLOCK);
                    assertThat(e.endedTransaction()).isTrue();
                })
                .hasMessageContaining("deadlock");
        otherWaits.get(30, TimeUnit.SECONDS);
        other.commit();

        assertThat(session.inTransaction()).isFalse();
        assertThat(rows("select k, v from t order by k")).containsExactly(row(1L, 2L), row(2L, 2L));
        assertThat(rows("select deadlocks from lock_waits()")).containsExactly(row(1L));
    }

    @Test
    void locksListsHoldersAndWaitersOfARow() throws Exception {
        script("""
                create table t (k integer primary key, v integer);
                insert into t values (1, 0);
                begin;
                update t set v = 1 where k = 1;
                """);
        CompletableFuture<Void> second = later(other(), "update t set v = 2 where k = 1");
        awaitAWaiter();

        try (Session observer = db.openSession()) {
            assertThat(rows(observer, "select waiting, object, mode from locks() where object like 'key%' order by waiting"))
                    .containsExactly(row(false, "key [1] of main.t", "EXCLUSIVE"), row(true, "key [1] of main.t", "EXCLUSIVE"));
        }
        session.commit();
        second.get(30, TimeUnit.SECONDS);
        assertThat(rows("select count(*) from locks()")).containsExactly(row(0L));
        assertThat(rows("select waits > 0, deadlocks, timeouts from lock_waits()")).containsExactly(row(1L, 0L, 0L));
    }

    @Test
    void rowIdsOfConcurrentInsertsIntoATableWithoutKeyDiffer() {
        script("""
                create table bag (v integer);
                begin;
                insert into bag values (1);
                """);
        Session other = other();
        other.execute("insert into bag values (2)");
        session.commit();

        assertThat(rows("select rowid, v from bag order by rowid")).containsExactly(row(1L, 1L), row(2L, 2L));
    }
}
