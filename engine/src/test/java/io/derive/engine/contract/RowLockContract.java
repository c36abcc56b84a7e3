package io.derive.engine.contract;

import io.derive.engine.api.CommitVote;
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

    /**
     * Runs {@code sql} on another session, waits until it waits for a lock of this session's
     * transaction, commits that transaction, and expects {@code sql} to fail then with {@code error}.
     */
    private void assertRefusedOnceThisTransactionCommits(String sql, String error) throws Exception {
        CompletableFuture<Void> waiting = later(other(), sql);
        awaitAWaiter();

        session.commit();

        assertThatThrownBy(() -> waiting.get(30, TimeUnit.SECONDS)).hasCauseInstanceOf(DeriveException.class)
                .hasMessageContaining(error);
    }

    /** Waits until some transaction is listed as waiting for a lock; asks from a session of its own, as the test's may be prepared. */
    private void awaitAWaiter() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        Session observer = other();
        while (rows(observer, "select count(*) from locks() where waiting").get(0).get(0).equals(0L)) {
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
        assertRefusedOnceThisTransactionCommits("delete from parent where id = 1", "FOREIGN KEY constraint failed");
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
        assertRefusedOnceThisTransactionCommits("insert into child values (10, 1)", "FOREIGN KEY constraint failed");
        assertThat(rows("select (select count(*) from parent), (select count(*) from child)")).containsExactly(row(0L, 0L));
    }

    @Test
    void twoInsertsOfOneUniqueValueUnderDifferentKeysCannotBothCommit() throws Exception {
        script("""
                create table t (k integer primary key, u text unique);
                begin;
                insert into t values (1, 'x');
                """);
        assertRefusedOnceThisTransactionCommits("insert into t values (2, 'x')", "UNIQUE constraint failed: t.u");
        assertThat(rows("select k from t")).containsExactly(row(1L));
    }

    @Test
    void twoSourceWritesDerivingOneUniqueValueUnderDifferentKeysCannotBothCommit() throws Exception {
        script("""
                create table t (k integer primary key, v text not null);
                create table m (k integer primary key, v text not null, constraint one_v unique (v))
                  maintained as select k, v from t;
                begin;
                insert into t values (1, 'x');
                """);
        assertRefusedOnceThisTransactionCommits("insert into t values (2, 'x')", "collides on its declared UNIQUE constraint");
        assertThat(rows("select k from m")).containsExactly(row(1L));
    }

    @Test
    void aParentDeletedAfterADerivedRowsCheckPassedIsRefusedOnceTheRowCommits() throws Exception {
        script("""
                create table p (id integer primary key);
                create table t (k integer primary key, owner integer);
                create table m (k integer primary key, owner integer references p (id))
                  maintained as select k, owner from t;
                insert into p values (1);
                begin;
                insert into t values (10, 1);
                """);
        assertThat(session.prepareCommit()).as("the derived row's parent check runs in prepare").isEqualTo(CommitVote.PREPARED);
        assertRefusedOnceThisTransactionCommits("delete from p where id = 1", "FOREIGN KEY constraint failed");
        assertThat(rows("select (select count(*) from p), (select count(*) from m)")).containsExactly(row(1L, 1L));
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
    void aJoinRowOverALookupRowChangedMeanwhileShowsTheChangeWithoutAForeignKey() throws Exception {
        script("""
                create table dim (d integer primary key, w integer not null);
                create table src (k integer primary key, d integer not null, v integer not null);
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
    void aPerRowViewIsGuardedByItsSourceRowLocksAndTakesNoLockOfItsOwn() {
        script("""
                create table src (k integer primary key, v integer);
                create materialized view copy as select k, v from src;
                insert into src values (2, 20);
                begin;
                insert into src values (1, 10);
                update src set v = 21 where k = 2;
                """);

        assertThat(rows("select object, mode from locks() where object like 'key%' or object like 'table%' order by object"))
                .containsExactly(row("key [1] of main.src", "EXCLUSIVE"), row("key [2] of main.src", "EXCLUSIVE"),
                        row("table main.src", "INTENT_EXCLUSIVE"));
    }

    @Test
    void aPerRowViewThatAnotherViewReadsLocksItsRows() {
        script("""
                create table src (k integer primary key, v integer);
                create materialized view copy as select k, v from src;
                create materialized view over_copy as select k, v from copy where v > 0;
                begin;
                insert into src values (1, 10);
                """);

        assertThat(rows("select object from locks() where object like 'key%' order by object"))
                .containsExactly(row("key [1] of main.copy"), row("key [1] of main.src"));
    }

    @Test
    void aRefreshOfAPerRowViewWaitsForTheWriterMaintainingIt() throws Exception {
        script("""
                create table src (k integer primary key, v integer);
                create materialized view copy as select k, v from src;
                begin;
                insert into src values (1, 10);
                """);
        CompletableFuture<Void> refresh = later(other(), "refresh materialized view copy");
        awaitAWaiter();

        session.commit();
        refresh.get(30, TimeUnit.SECONDS);

        assertThat(rows("select k, v from copy")).containsExactly(row(1L, 10L));
    }

    @Test
    void aWriterOfAPerRowViewsSourceWaitsForARefreshOfTheViewAndIsMaintainedAfterIt() throws Exception {
        script("""
                create table src (k integer primary key, v integer);
                create materialized view copy as select k, v from src;
                insert into src values (1, 10);
                begin;
                refresh materialized view copy;
                """);
        CompletableFuture<Void> insert = later(other(), "insert into src values (2, 20)");
        awaitAWaiter();

        session.commit();
        insert.get(30, TimeUnit.SECONDS);

        assertThat(rows("select k, v from copy order by k")).containsExactly(row(1L, 10L), row(2L, 20L));
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

    /** Every view equals its body, both ways, asked in one statement (so at one snapshot). */
    private static final String VIEWS_MINUS_BODIES = """
            select (select count(*) from (select k, v from src where v > 50 except select k, v from mv_proj))
                 + (select count(*) from (select k, v from mv_proj except select k, v from src where v > 50))
                 + (select count(*) from (select g, count(*), sum(v), max(v) from src group by g
                                          except select g, n, total, top from mv_group))
                 + (select count(*) from (select g, n, total, top from mv_group
                                          except select g, count(*), sum(v), max(v) from src group by g))
                 + (select count(*) from (select s.k, s.v, m.w from src s join dim m on m.d = s.d
                                          except select k, v, w from mv_join))
                 + (select count(*) from (select k, v, w from mv_join
                                          except select s.k, s.v, m.w from src s join dim m on m.d = s.d))
            """;

    @Test
    void randomTransactionsOverSharedRowsLeaveEveryViewEqualToItsBody() throws Exception {
        script("""
                create table dim (d integer primary key, w integer not null);
                insert into dim values (0, 1), (1, 2), (2, 3), (3, 5);
                create table src (k integer primary key, g integer not null, d integer not null, v integer not null);
                create materialized view mv_proj as select k, v from src where v > 50;
                create materialized view mv_group as select g, count(*) as n, sum(v) as total, max(v) as top from src group by g;
                create materialized view mv_join as select s.k, s.v, m.w from src s join dim m on m.d = s.d;
                """);
        int writers = 4;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(4);
        List<String> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.concurrent.atomic.AtomicInteger commits = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicInteger deadlocks = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicInteger tornReads = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicInteger reads = new java.util.concurrent.atomic.AtomicInteger();
        List<Future<?>> done = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
            Session s = other();
            java.util.Random random = new java.util.Random(17L * w + 3);
            done.add(threads.submit(() -> {
                for (int t = 0; t < 2000 && System.nanoTime() < deadline; t++) {
                    try {
                        s.begin();
                        for (int i = 1 + random.nextInt(3); i > 0; i--) {
                            randomWrite(s, random);
                        }
                        if (random.nextInt(6) == 0) {
                            s.rollback();
                        } else {
                            s.commit();
                            commits.incrementAndGet();
                        }
                    } catch (DeriveException e) {
                        if (DeriveException.DEADLOCK.equals(e.code())) {
                            deadlocks.incrementAndGet();
                        } else {
                            failures.add(e.toString());
                        }
                        if (s.inTransaction()) {
                            s.rollback();
                        }
                    }
                }
                return null;
            }));
        }
        Session reader = other();
        done.add(threads.submit(() -> {
            while (System.nanoTime() < deadline) {
                if (!rows(reader, VIEWS_MINUS_BODIES).get(0).get(0).equals(0L)) {
                    tornReads.incrementAndGet();
                }
                reads.incrementAndGet();
            }
            return null;
        }));
        for (Future<?> f : done) {
            f.get(120, TimeUnit.SECONDS);
        }

        assertThat(failures).as("writes that failed other than as deadlock victims").isEmpty();
        assertThat(tornReads.get()).as("reads (of %s) where a view differed from its body", reads.get()).isZero();
        assertThat(rows(VIEWS_MINUS_BODIES)).containsExactly(row(0L));
        assertThat(commits.get()).as("commits beside %s deadlock victims", deadlocks.get()).isGreaterThan(100);
    }

    /** One statement of the MV differential's kinds, over keys every writer shares. */
    private static void randomWrite(Session s, java.util.Random random) {
        int k = random.nextInt(48);
        switch (random.nextInt(7)) {
            case 0, 1 -> s.execute("insert or replace into src values (?, ?, ?, ?)", k, random.nextInt(4), random.nextInt(4),
                    random.nextInt(100));
            case 2 -> s.execute("update src set v = v + 7, g = ? where k = ?", random.nextInt(4), k);
            case 3 -> s.execute("delete from src where k = ?", k);
            case 4 -> s.execute("update dim set w = w + 1 where d = ?", random.nextInt(4));
            case 5 -> s.execute("update src set d = ? where k between ? and ?", random.nextInt(4), k, k + 2);
            default -> s.execute("delete from src where k between ? and ? and v < 30", k, k + 3);
        }
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
