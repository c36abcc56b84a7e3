package io.derive.bench;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.Derive;
import io.derive.engine.api.Database;
import io.derive.engine.api.PreparedStatement;
import io.derive.engine.api.Session;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.infra.ThreadParams;

import java.util.concurrent.TimeUnit;

/**
 * P8, writers side by side: the throughput of 8 threads writing at once ÷ that of 1 thread, each
 * an autocommit update by key on its own session, on the memory host and on the Derby host (in
 * memory). Two shapes: every thread updates rows of its own table (each with a projection view),
 * and every thread updates its own rows of one shared table, all of them in its own group of a
 * group-by view. Each thread's rows are loaded before it starts, so tables keep their size. The
 * ratio of each {@code …8} benchmark to its {@code …1} one is the figure: ≥ 1.6 for disjoint
 * tables on two cores, ≥ 1.0 (no collapse) for the groups of one view.
 *
 * <p>The {@code ownDatabases} pair is no figure but, on the memory host, its ceiling: the
 * disjoint writes again, each thread on a database of its own, so that writers share no engine
 * state at all and their ratio is what the machine gives that many threads doing this work. On
 * the Derby host each database is a Derby database of its own, with its own caches and threads,
 * so the pair measures something else there.
 */
@Fork(jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class ConcurrentWritersBenchmark {
    private static final int TABLES = 8;
    private static final int ROWS_PER_THREAD = 1024;

    /** A table of the disjoint writes and its projection view: one shape for the shared database and the own ones. */
    private static void createTableWithView(Session session, String table) {
        session.execute("create table " + table + " (k integer primary key, v integer not null)");
        session.execute("create materialized view " + table + "_proj as select k, v from " + table);
    }

    @State(Scope.Benchmark)
    public static class Shared {
        @Param({"memory", "derby"})
        public String host;

        Database database;

        @Setup(Level.Trial)
        public void open() {
            DerbySettings.apply();
            database = Derive.open(DatabaseConfig.named("concurrent-writers-" + host).withDefaultHost(host));
            try (Session s = database.openSession()) {
                for (int t = 0; t < TABLES; t++) {
                    createTableWithView(s, "own" + t);
                }
                s.execute("create table shared_src (k integer primary key, g integer not null, v integer not null)");
                s.execute("create materialized view per_group as select g, count(*) as n, sum(v) as total from shared_src group by g");
            }
        }

        @TearDown(Level.Trial)
        public void close() {
            database.close();
        }
    }

    /** One thread's session, statements and rows: rows of different threads never meet. */
    @State(Scope.Thread)
    public static class Writer {
        Session session;
        PreparedStatement ownTable;
        PreparedStatement ownGroup;
        long firstKey;
        long next;

        @Setup(Level.Trial)
        public void open(Shared shared, ThreadParams thread) {
            int index = thread.getThreadIndex();
            session = shared.database.openSession();
            firstKey = (long) index * ROWS_PER_THREAD;
            session.begin();
            for (long k = firstKey; k < firstKey + ROWS_PER_THREAD; k++) {
                session.execute("insert into own" + (index % TABLES) + " values (?, 0)", k);
                session.execute("insert into shared_src values (?, ?, 0)", k, index);
            }
            session.commit();
            ownTable = session.prepare("update own" + (index % TABLES) + " set v = v + 1 where k = ?");
            ownGroup = session.prepare("update shared_src set v = v + 1 where k = ?");
        }

        long nextKey() {
            return firstKey + next++ % ROWS_PER_THREAD;
        }

        @TearDown(Level.Trial)
        public void close() {
            session.close();
        }
    }

    /** One thread's own database, holding one table with a projection view, like the disjoint tables' own. */
    @State(Scope.Thread)
    public static class OwnDatabase {
        @Param({"memory", "derby"})
        public String host;

        Database database;
        Session session;
        PreparedStatement update;
        long next;

        @Setup(Level.Trial)
        public void open(ThreadParams thread) {
            DerbySettings.apply();
            database = Derive.open(DatabaseConfig.named("own-database-" + host + "-" + thread.getThreadIndex())
                    .withDefaultHost(host));
            session = database.openSession();
            createTableWithView(session, "own");
            session.begin();
            for (long k = 0; k < ROWS_PER_THREAD; k++) {
                session.execute("insert into own values (?, 0)", k);
            }
            session.commit();
            update = session.prepare("update own set v = v + 1 where k = ?");
        }

        long nextKey() {
            return next++ % ROWS_PER_THREAD;
        }

        @TearDown(Level.Trial)
        public void close() {
            session.close();
            database.close();
        }
    }

    @Benchmark
    @Threads(1)
    public void ownDatabases1(OwnDatabase d) {
        d.update.execute(d.nextKey());
    }

    @Benchmark
    @Threads(8)
    public void ownDatabases8(OwnDatabase d) {
        d.update.execute(d.nextKey());
    }

    @Benchmark
    @Threads(1)
    public void disjointTables1(Writer w) {
        w.ownTable.execute(w.nextKey());
    }

    @Benchmark
    @Threads(8)
    public void disjointTables8(Writer w) {
        w.ownTable.execute(w.nextKey());
    }

    @Benchmark
    @Threads(1)
    public void groupsOfOneView1(Writer w) {
        w.ownGroup.execute(w.nextKey());
    }

    @Benchmark
    @Threads(8)
    public void groupsOfOneView8(Writer w) {
        w.ownGroup.execute(w.nextKey());
    }
}
