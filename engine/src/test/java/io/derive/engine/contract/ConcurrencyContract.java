package io.derive.engine.contract;

import io.derive.engine.Derive;
import io.derive.engine.api.BranchId;
import io.derive.engine.api.CommitVote;
import io.derive.engine.api.DeriveException;
import io.derive.engine.api.Row;
import io.derive.engine.api.Session;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.SoftAssertions.assertSoftly;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Many sessions on one database, each on its own thread (issue 3, "Show it"): one writer at a
 * time, readers never blocked (by an open transaction or a prepared branch) and never seeing
 * uncommitted rows, each statement reading one committed state of the whole database (a source
 * and its views at the same commit), no lost update, and lock waits that end in a clear error.
 */
public abstract class ConcurrencyContract extends HostContractTest {
    private static final int WRITERS = 4;

    @Test
    void concurrentIncrementsInTransactionsLoseNoUpdate() throws Exception {
        script("""
                create table counter (id integer primary key, n integer);
                insert into counter values (1, 0);
                """);
        int perWriter = 100;
        AtomicInteger commits = new AtomicInteger();
        runConcurrently(WRITERS, worker -> {
            try (Session s = db.openSession()) {
                for (int i = 0; i < perWriter; i++) {
                    s.begin();
                    s.execute("update counter set n = n + 1 where id = 1");
                    s.commit();
                    commits.incrementAndGet();
                }
            }
        });
        assertThat(commits.get()).isEqualTo(WRITERS * perWriter);
        assertThat(rows("select n from counter")).containsExactly(row((long) commits.get()));
    }

    @Test
    void anUpdateWaitingForTheLockReadsTheValueCommittedBeforeIt() throws Exception {
        script("""
                create table counter (id integer primary key, n integer);
                insert into counter values (1, 0);
                begin;
                update counter set n = n + 1 where id = 1;
                """);
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Future<?> second = pool.submit(() -> {
                try (Session s = db.openSession()) {
                    s.execute("update counter set n = n + 1 where id = 1");
                }
                return null;
            });
            Thread.sleep(200); // the second update is now waiting for the write lock
            session.commit();
            second.get(10, TimeUnit.SECONDS);
        } finally {
            pool.shutdownNow();
        }
        assertThat(rows("select n from counter")).containsExactly(row(2L));
    }

    @Test
    void readersSeeOnlyCommittedTransactionsWhole() throws Exception {
        // each transaction inserts +1 and -1: any committed state sums to 0, a partial one does not
        script("create table ledger (k integer primary key, amount integer)");
        AtomicBoolean writing = new AtomicBoolean(true);
        AtomicInteger reads = new AtomicInteger();
        List<Long> badSums = new java.util.concurrent.CopyOnWriteArrayList<>();
        CountDownLatch readersStarted = new CountDownLatch(2);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> readers = new ArrayList<>();
            for (int r = 0; r < 2; r++) {
                readers.add(pool.submit(() -> {
                    try (Session s = db.openSession()) {
                        readersStarted.countDown();
                        while (writing.get() || reads.get() < 10) {
                            long sum = 0;
                            for (Row row : s.execute("select amount from ledger").rows()) {
                                sum += (Long) row.values().get(0);
                            }
                            if (sum != 0) {
                                badSums.add(sum);
                            }
                            reads.incrementAndGet();
                        }
                    }
                    return null;
                }));
            }
            Future<?> writer = pool.submit(() -> {
                readersStarted.await();
                try (Session s = db.openSession()) {
                    for (int i = 0; i < 200; i += 2) {
                        s.begin();
                        s.execute("insert into ledger values (?, 1)", i);
                        s.execute("insert into ledger values (?, -1)", i + 1);
                        s.commit();
                    }
                } finally {
                    writing.set(false);
                }
                return null;
            });
            writer.get(60, TimeUnit.SECONDS);
            for (Future<?> reader : readers) {
                reader.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(badSums).isEmpty();
        assertThat(reads.get()).isGreaterThanOrEqualTo(10);
        assertThat(rows("select k from ledger")).hasSize(200);
    }

    /** A table and its projection view that a writer changes beside a reader: one row updated, one deleted, one inserted. */
    private static final String READ_BESIDE_WRITER = """
            create table t (k integer primary key, v text);
            create materialized view m as select k, v from t;
            insert into t values (1, 'one'), (2, 'two');
            """;

    @Test
    void aReaderIsNotBlockedByAnOpenWriteTransaction() throws Exception {
        script(READ_BESIDE_WRITER);
        readBesideAnOpenWriter(Session::begin, writer -> {
        });
    }

    @Test
    void aReaderIsNotBlockedByAPreparedBranch() throws Exception {
        script(READ_BESIDE_WRITER);
        BranchId xid = new BranchId(0x4465, "read-beside".getBytes(StandardCharsets.UTF_8),
                "branch-1".getBytes(StandardCharsets.UTF_8));
        readBesideAnOpenWriter(writer -> writer.begin(xid),
                writer -> assertThat(writer.prepareCommit()).isEqualTo(CommitVote.PREPARED));
    }

    /**
     * A writer on its own thread opens a transaction with {@code open}, updates row 1, deletes
     * row 2 and inserts row 3 of {@code t} (and so of {@code m}), runs {@code beforeCommit} and
     * holds the transaction open until released. Meanwhile a reader's statements complete and read
     * the committed rows; after the writer's commit the reader's next statements read its rows.
     */
    private void readBesideAnOpenWriter(Consumer<Session> open, Consumer<Session> beforeCommit) throws Exception {
        CountDownLatch written = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (Session reader = db.openSession()) {
            Future<?> writer = pool.submit(() -> {
                try (Session w = db.openSession()) {
                    open.accept(w);
                    w.execute("update t set v = 'uno' where k = 1");
                    w.execute("delete from t where k = 2");
                    w.execute("insert into t values (3, 'three')");
                    beforeCommit.accept(w);
                    written.countDown();
                    assertThat(release.await(60, TimeUnit.SECONDS)).as("released by the test").isTrue();
                    w.commit();
                }
                return null;
            });
            awaitOrFail(written, writer);

            Future<List<List<List<Object>>>> beside = pool.submit(() -> List.of(
                    rows(reader, "select k, v from t order by k"),
                    rows(reader, "select k, v from m order by k"),
                    rows(reader, "select v from t where k = 1"),
                    rows(reader, "select v from t where k = 2"),
                    rows(reader, "select v from t where k = 3")));
            List<List<Object>> committed = List.of(row(1L, "one"), row(2L, "two"));
            assertThat(beside.get(10, TimeUnit.SECONDS)).containsExactly(
                    committed, committed, List.of(row("one")), List.of(row("two")), List.of());
            assertThat(writer).as("the writer's transaction is still open").isNotDone();

            release.countDown();
            writer.get(10, TimeUnit.SECONDS);
            Future<List<List<List<Object>>>> after = pool.submit(() -> List.of(
                    rows(reader, "select k, v from t order by k"),
                    rows(reader, "select k, v from m order by k")));
            List<List<Object>> itsRows = List.of(row(1L, "uno"), row(3L, "three"));
            assertThat(after.get(10, TimeUnit.SECONDS)).containsExactly(itsRows, itsRows);
        } finally {
            release.countDown();
            pool.shutdownNow();
        }
    }

    /**
     * A stale view of {@code rows} rows whose source changed under it, so that its refresh
     * rewrites every row: before it, count and sum are {@code rows} and 1 + … + rows; after it
     * the sum is {@code rows} more.
     */
    private void staleViewOf(int rows) {
        script("""
                create table t (k integer primary key, v integer not null);
                insert into t select value, value from generate_series(1, %d);
                create materialized view m as select k, v from t;
                alter table t alter column v set data type real;
                update t set v = v + 1;
                """.formatted(rows));
    }

    private static List<Object> countAndSum(Session reader) {
        List<Object> answer = rows(reader, "select count(*), sum(v) from m").get(0);
        return List.of(((Number) answer.get(0)).longValue(), ((Number) answer.get(1)).doubleValue());
    }

    @Test
    void aReaderBesideAnOpenRefreshReadsTheOldContentsWholeUntilItCommits() throws Exception {
        staleViewOf(1000);
        CountDownLatch refreshed = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (Session reader = db.openSession()) {
            Future<?> writer = pool.submit(() -> {
                try (Session w = db.openSession()) {
                    w.begin();
                    w.execute("refresh materialized view m");
                    refreshed.countDown();
                    assertThat(release.await(60, TimeUnit.SECONDS)).as("released by the test").isTrue();
                    w.commit();
                }
                return null;
            });
            awaitOrFail(refreshed, writer);

            assertThat(pool.submit(() -> countAndSum(reader)).get(10, TimeUnit.SECONDS)).containsExactly(1000L, 500_500.0);
            assertThat(writer).as("the refreshing transaction is still open").isNotDone();

            release.countDown();
            writer.get(10, TimeUnit.SECONDS);
            assertThat(pool.submit(() -> countAndSum(reader)).get(10, TimeUnit.SECONDS)).containsExactly(1000L, 501_500.0);
        } finally {
            release.countDown();
            pool.shutdownNow();
        }
    }

    @Test
    void everyReadBesideARefreshInAutocommitSeesAllTheOldRowsOrAllTheNewOnes() throws Exception {
        int rows = 20_000;
        staleViewOf(rows);
        List<Object> old = List.of((long) rows, rows * (rows + 1) / 2.0);
        List<Object> refreshed = List.of((long) rows, rows * (rows + 1) / 2.0 + rows);
        ExecutorService pool = Executors.newSingleThreadExecutor();
        List<List<Object>> seen = new ArrayList<>();
        try (Session reader = db.openSession()) {
            Future<?> refresh = pool.submit(() -> {
                try (Session w = db.openSession()) {
                    w.execute("refresh materialized view m");
                }
                return null;
            });
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!refresh.isDone() && System.nanoTime() < deadline) {
                seen.add(countAndSum(reader));
            }
            refresh.get(10, TimeUnit.SECONDS);
            seen.add(countAndSum(reader));
        } finally {
            pool.shutdownNow();
        }
        System.getLogger(ConcurrencyContract.class.getName()).log(System.Logger.Level.INFO,
                "reads beside a refresh of " + rows + " rows: " + seen.size());
        assertThat(seen).allSatisfy(answer -> assertThat(answer).isIn(old, refreshed));
        assertThat(seen.get(seen.size() - 1)).isEqualTo(refreshed);
    }

    /** Waits for {@code latch}, failing with the writer's own failure if it ended first. */
    private static void awaitOrFail(CountDownLatch latch, Future<?> writer) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!latch.await(50, TimeUnit.MILLISECONDS)) {
            if (writer.isDone()) {
                writer.get();
                throw new AssertionError("the writer ended before it had written");
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the writer did not write within 10 s");
            }
        }
    }

    @Test
    void writersOfARowAnotherTransactionWritesFailAtTheTimeoutWithTheWaitNamed() throws Exception {
        reopenWaitingAtMost50Ms();
        script("""
                create table t (k integer primary key);
                begin;
                insert into t values (0);
                """);
        List<Throwable> failures = failuresOfConcurrent("insert into t values (0)");
        session.rollback();
        assertEachTimedOutWaitingFor(failures, "key [0] of main.t (EXCLUSIVE)");
        assertThat(rows("select k from t")).isEmpty();
    }

    @Test
    void aRefreshOnAnotherThreadWaitsForAnOpenWriterOfItsSourceAndTimesOutNamingIt() throws Exception {
        reopenWaitingAtMost50Ms();
        script("""
                create table t (k integer primary key);
                create materialized view m as select k from t;
                begin;
                insert into t values (0);
                """);
        List<Throwable> failures = failuresOfConcurrent("refresh materialized view m");
        session.commit();
        assertEachTimedOutWaitingFor(failures, "table main.t (SHARED)");
        assertThat(rows("select k from m")).containsExactly(List.of(0L));
    }

    private void reopenWaitingAtMost50Ms() {
        session.close();
        db.close();
        db = Derive.open(config().withWriteLockTimeout(Duration.ofMillis(50)));
        session = db.openSession();
    }

    /** What {@code sql} raised in each of {@value #WRITERS} sessions running it at once. */
    private List<Throwable> failuresOfConcurrent(String sql) throws Exception {
        List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
        runConcurrently(WRITERS, worker -> {
            try (Session s = db.openSession()) {
                s.execute(sql);
            } catch (RuntimeException e) {
                failures.add(e);
            }
        });
        return failures;
    }

    /** Every one of the {@value #WRITERS} sessions timed out waiting for {@code lock}, held by session 1. */
    private static void assertEachTimedOutWaitingFor(List<Throwable> failures, String lock) {
        assertThat(failures).hasSize(WRITERS).allSatisfy(e -> {
            assertThat(e).isInstanceOf(DeriveException.class)
                    .hasMessageContaining("waited 50 ms for " + lock + ", held by session 1 of database");
            assertThat(((DeriveException) e).code()).isEqualTo(DeriveException.LOCK_TIMEOUT);
        });
    }

    /** On the group arm's fast path ({@code sum}) and through its slice recompute ({@code count(distinct)}). */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"sum(v)", "count(distinct v)"})
    void singleRowWritesMovingRowsBetweenTwoGroupsInOppositeDirectionsQueueInsteadOfDeadlocking(String aggregate)
            throws Exception {
        script("""
                create table item (k integer primary key, g text not null, v integer not null);
                create materialized view per_g as select g, count(*) as n, %s as x from item group by g;
                """.formatted(aggregate));
        for (int w = 0; w < WRITERS; w++) {
            session.execute("insert into item values (?, ?, ?)", (long) w, w % 2 == 0 ? "a" : "b", (long) w);
        }
        int moves = 400;
        List<String> deadlocks = new java.util.concurrent.CopyOnWriteArrayList<>();
        runConcurrently(WRITERS, worker -> {
            try (Session s = db.openSession()) {
                for (int i = 0; i < moves; i++) {
                    try {
                        s.execute("update item set g = case g when 'a' then 'b' else 'a' end where k = ?", (long) worker);
                    } catch (DeriveException e) {
                        if (!e.code().equals(DeriveException.DEADLOCK)) {
                            throw e;
                        }
                        deadlocks.add(e.getMessage());
                    }
                }
            }
        });
        assertThat(deadlocks).as("a single-row write locks the groups it moves a row between in one order").isEmpty();
        assertThat(rows("select g, n, x from per_g order by g"))
                .containsExactlyElementsOf(rows("select g, count(*), " + aggregate + " from item group by g order by g"))
                .hasSize(2);
    }

    /**
     * A source with a projection, a group and a join view (each row of {@code src} joins one row
     * of {@code dim}), for the tests that read them beside writers; every query of those tests
     * answers one row of zeros in any committed state.
     */
    private static final String SOURCE_AND_VIEWS = """
            create table dim (d integer primary key, w integer not null);
            insert into dim values (0, 1), (1, 2), (2, 3), (3, 5);
            create table src (k integer primary key, g integer not null, v integer not null);
            create materialized view mv_proj as select k, g, v from src;
            create materialized view mv_group as select g, count(*) as n, sum(v) as total from src group by g;
            create materialized view mv_join as select s.k, s.v, d.w from src s join dim d on d.d = s.g;
            """;

    private static final int VIEW_WRITERS = 2;
    private static final int VIEW_READERS = 2;
    /** Keys of {@code src} each writer owns (so it knows which exist), in groups shared by all writers. */
    private static final int KEYS_PER_WRITER = 64;
    private static final int GROUPS = 4;
    private static final long SEED = 20240611L;
    private static final int MAX_READS = 3000;
    private static final int MIN_READS = 1000;
    private static final Duration READING_TIME = Duration.ofSeconds(20);

    @Test
    void aStatementReadsASourceAndItsProjectionViewAtOneCommit() throws Exception {
        assertEveryReadIsZeroBesideWriters(
                """
                select (select count(*) from src) - (select count(*) from mv_proj),
                       (select coalesce(sum(v), 0) from src) - (select coalesce(sum(v), 0) from mv_proj)
                """,
                """
                select (select count(*) from (select k, g, v from mv_proj except select k, g, v from src) x)
                     + (select count(*) from (select k, g, v from src except select k, g, v from mv_proj) y)
                """);
    }

    @Test
    void aStatementReadsASourceAndItsGroupViewAtOneCommit() throws Exception {
        assertEveryReadIsZeroBesideWriters(
                """
                select (select count(*) from src) - (select coalesce(sum(n), 0) from mv_group),
                       (select coalesce(sum(v), 0) from src) - (select coalesce(sum(total), 0) from mv_group)
                """,
                """
                select (select count(*) from (select g, n, total from mv_group
                                              except select g, count(*), sum(v) from src group by g) x)
                     + (select count(*) from (select g, count(*), sum(v) from src group by g
                                              except select g, n, total from mv_group) y)
                """);
    }

    @Test
    void aStatementReadsASourceAndItsJoinViewAtOneCommit() throws Exception {
        assertEveryReadIsZeroBesideWriters(
                """
                select (select count(*) from src) - (select count(*) from mv_join),
                       (select coalesce(sum(v), 0) from src) - (select coalesce(sum(v), 0) from mv_join)
                """,
                """
                select (select count(*) from (select k, v, w from mv_join
                                              except select s.k, s.v, d.w from src s join dim d on d.d = s.g) x)
                     + (select count(*) from (select s.k, s.v, d.w from src s join dim d on d.d = s.g
                                              except select k, v, w from mv_join) y)
                """);
    }

    @Test
    void aStatementReadsAllViewsOfASourceAtOneCommit() throws Exception {
        assertEveryReadIsZeroBesideWriters(
                """
                select (select count(*) from mv_proj) - (select coalesce(sum(n), 0) from mv_group),
                       (select count(*) from mv_proj) - (select count(*) from mv_join),
                       (select coalesce(sum(v), 0) from mv_proj) - (select coalesce(sum(total), 0) from mv_group),
                       (select coalesce(sum(total), 0) from mv_group) - (select coalesce(sum(v), 0) from mv_join)
                """);
    }

    @Test
    void aStatementReadsASourceAndItsViewsOnAnotherHostAtOneCommit() throws Exception {
        assumeTrue(otherHost() != null, "this host's suite has no second host");
        String elsewhere = SOURCE_AND_VIEWS;
        for (String view : List.of("mv_proj", "mv_group", "mv_join")) {
            elsewhere = elsewhere.replace("materialized view " + view, "materialized view " + view + " using " + otherHost());
        }
        assertEveryReadIsZeroBesideWritersOn(elsewhere,
                """
                select (select count(*) from src) - (select count(*) from mv_proj),
                       (select count(*) from src) - (select coalesce(sum(n), 0) from mv_group),
                       (select coalesce(sum(v), 0) from src) - (select coalesce(sum(total), 0) from mv_group),
                       (select coalesce(sum(v), 0) from src) - (select coalesce(sum(v), 0) from mv_join)
                """);
    }

    /**
     * A second table module of this suite's databases, on which views over this host's sources
     * may live, or {@code null} when there is none: commits over both must become visible at once.
     */
    protected String otherHost() {
        return null;
    }

    private void assertEveryReadIsZeroBesideWriters(String... queries) throws Exception {
        assertEveryReadIsZeroBesideWritersOn(SOURCE_AND_VIEWS, queries);
    }

    /**
     * Creates {@code schema} (by default {@link #SOURCE_AND_VIEWS}); then, while writers commit
     * (and roll back) random writes to {@code src}, readers run {@code queries} in turn, each a
     * single statement, until {@link #MAX_READS} reads or {@link #READING_TIME}. Every value of
     * every read must be 0, and no read or write may fail.
     */
    private void assertEveryReadIsZeroBesideWritersOn(String schema, String... queries) throws Exception {
        script(schema);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger reads = new AtomicInteger();
        AtomicInteger commits = new AtomicInteger();
        Failures torn = new Failures();
        Failures readErrors = new Failures();
        Failures writeErrors = new Failures();
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(VIEW_WRITERS + VIEW_READERS);
        try {
            List<Future<?>> threads = new ArrayList<>();
            for (int w = 0; w < VIEW_WRITERS; w++) {
                int worker = w;
                threads.add(pool.submit(() -> {
                    start.await();
                    try (Session s = db.openSession()) {
                        new ViewSourceWriter(s, worker, commits, writeErrors).writeUntil(stop);
                    }
                    return null;
                }));
            }
            long deadline = System.nanoTime() + READING_TIME.toNanos();
            for (int r = 0; r < VIEW_READERS; r++) {
                int reader = r;
                threads.add(pool.submit(() -> {
                    start.await();
                    try (Session s = db.openSession()) {
                        for (int i = reader; !stop.get(); i++) {
                            String query = queries[i % queries.length];
                            try {
                                List<Object> values = rows(s, query).get(0);
                                if (!values.stream().allMatch(v -> v instanceof Number n && n.longValue() == 0)) {
                                    torn.add("query " + (i % queries.length) + " read " + values);
                                }
                            } catch (RuntimeException e) {
                                readErrors.add("query " + (i % queries.length) + ": " + e);
                            }
                            if (reads.incrementAndGet() >= MAX_READS || System.nanoTime() > deadline) {
                                stop.set(true);
                            }
                        }
                    } finally {
                        stop.set(true);
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> f : threads) {
                f.get(READING_TIME.toSeconds() + 60, TimeUnit.SECONDS);
            }
        } finally {
            stop.set(true);
            pool.shutdownNow();
        }
        for (String query : queries) {
            assertThat(rows(query)).as("after the writes: %s", query).singleElement()
                    .satisfies(values -> assertThat(values).containsOnly(0L));
        }
        String summary = reads.get() + " reads beside " + commits.get() + " commits";
        assertSoftly(soft -> {
            soft.assertThat(torn.count()).as("reads that saw a non-zero difference (%s); first: %s", summary, torn.first())
                    .isZero();
            soft.assertThat(readErrors.count()).as("reads that failed (%s); first: %s", summary, readErrors.first())
                    .isZero();
            soft.assertThat(writeErrors.count()).as("writes that failed (%s); first: %s", summary, writeErrors.first())
                    .isZero();
            soft.assertThat(reads.get()).as("reads").isGreaterThanOrEqualTo(MIN_READS);
            soft.assertThat(commits.get()).as("commits beside the reads").isGreaterThanOrEqualTo(50);
        });
    }

    /** A count of failures of one kind, with the first few described. */
    private static final class Failures {
        private final AtomicInteger count = new AtomicInteger();
        private final List<String> first = new java.util.concurrent.CopyOnWriteArrayList<>();

        void add(String failure) {
            if (count.incrementAndGet() <= 5) {
                first.add(failure);
            }
        }

        int count() {
            return count.get();
        }

        List<String> first() {
            return first;
        }
    }

    /**
     * Writes to its own keys of {@code src} (so it knows which exist) in groups drawn at random
     * from a fixed seed: single-row inserts, updates and deletes in autocommit, multi-row
     * statements, and explicit transactions of several writes, one in eight of them rolled back.
     */
    private static final class ViewSourceWriter {
        private final Session session;
        private final Random random;
        private final int low;
        private final AtomicInteger commits;
        private final Failures errors;
        private boolean[] present = new boolean[KEYS_PER_WRITER];

        ViewSourceWriter(Session session, int worker, AtomicInteger commits, Failures errors) {
            this.session = session;
            this.random = new Random(SEED + worker);
            this.low = worker * KEYS_PER_WRITER;
            this.commits = commits;
            this.errors = errors;
        }

        void writeUntil(AtomicBoolean stop) {
            boolean stale = false;
            while (!stop.get()) {
                try {
                    if (stale) {
                        resync();
                        stale = false;
                    }
                    if (random.nextInt(3) == 0) {
                        transaction();
                    } else {
                        boolean[] next = present.clone();
                        write(next);
                        present = next;
                        commits.incrementAndGet();
                    }
                } catch (RuntimeException e) {
                    if (!(e instanceof DeriveException d && DeriveException.DEADLOCK.equals(d.code()))) {
                        errors.add(e.toString());
                    }
                    try {
                        session.rollback();
                    } catch (RuntimeException again) {
                        errors.add("rollback: " + again);
                    }
                    stale = true;
                }
            }
        }

        private void transaction() {
            boolean[] next = present.clone();
            session.begin();
            for (int i = 2 + random.nextInt(5); i > 0; i--) {
                write(next);
            }
            if (random.nextInt(8) == 0) {
                session.rollback();
            } else {
                session.commit();
                present = next;
                commits.incrementAndGet();
            }
        }

        /** One statement; {@code next} follows which of this writer's keys it leaves in place. */
        private void write(boolean[] next) {
            int choice = random.nextInt(10);
            if (choice == 0) {
                session.execute("update src set v = v + 1 where g = ?", random.nextInt(GROUPS));
            } else if (choice == 1) {
                int from = random.nextInt(KEYS_PER_WRITER - 4);
                session.execute("delete from src where k between ? and ?", low + from, low + from + 3);
                java.util.Arrays.fill(next, from, from + 4, false);
            } else if (choice == 2) {
                int from = random.nextInt(KEYS_PER_WRITER - 4);
                session.execute("update src set g = ?, v = 101 - v where k between ? and ?",
                        random.nextInt(GROUPS), low + from, low + from + 3);
            } else {
                int key = random.nextInt(KEYS_PER_WRITER);
                if (!next[key]) {
                    session.execute("insert into src values (?, ?, ?)", low + key, random.nextInt(GROUPS),
                            1 + random.nextInt(100));
                    next[key] = true;
                } else if (random.nextBoolean()) {
                    session.execute("update src set g = ?, v = ? where k = ?", random.nextInt(GROUPS),
                            1 + random.nextInt(100), low + key);
                } else {
                    session.execute("delete from src where k = ?", low + key);
                    next[key] = false;
                }
            }
        }

        /** After a failed write, when this writer no longer knows: which of its keys exist now. */
        private void resync() {
            present = new boolean[KEYS_PER_WRITER];
            for (List<Object> row : rows(session, "select k from src where k between ? and ?", low, low + KEYS_PER_WRITER - 1)) {
                present[(int) ((Long) row.get(0) - low)] = true;
            }
        }
    }

    /** Work that one thread does; {@code worker} numbers the threads from 0. */
    private interface Worker {
        void run(int worker) throws Exception;
    }

    private static void runConcurrently(int threads, Worker work) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int worker = t;
                done.add(pool.submit(() -> {
                    start.await();
                    work.run(worker);
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> f : done) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
