package io.derive.engine.contract;

import io.derive.engine.Derive;
import io.derive.engine.api.BranchId;
import io.derive.engine.api.CommitVote;
import io.derive.engine.api.DeriveException;
import io.derive.engine.api.Row;
import io.derive.engine.api.Session;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Many sessions on one database, each on its own thread (issue 3, "Show it"): one writer at a
 * time, readers never blocked and never seeing uncommitted rows, no lost update, and lock waits
 * that end in a clear error.
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
    void writersThatCannotGetTheLockInTimeFailWithTheWaitNamed() throws Exception {
        session.close();
        db.close();
        db = Derive.open(config().withWriteLockTimeout(Duration.ofMillis(50)));
        session = db.openSession();
        script("""
                create table t (k integer primary key);
                begin;
                insert into t values (0);
                """);
        List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
        runConcurrently(WRITERS, worker -> {
            try (Session s = db.openSession()) {
                s.execute("insert into t values (?)", worker + 1);
            } catch (RuntimeException e) {
                failures.add(e);
            }
        });
        session.rollback();
        assertThat(failures).hasSize(WRITERS).allSatisfy(e -> {
            assertThat(e).isInstanceOf(DeriveException.class)
                    .hasMessageContaining("waited 50 ms for the write lock, held by session 1");
            assertThat(((DeriveException) e).code()).isEqualTo(DeriveException.LOCK_TIMEOUT);
        });
        assertThat(rows("select k from t")).isEmpty();
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
