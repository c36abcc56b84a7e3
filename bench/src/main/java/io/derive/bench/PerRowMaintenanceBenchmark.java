package io.derive.bench;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.Derive;
import io.derive.engine.api.Database;
import io.derive.engine.api.PreparedStatement;
import io.derive.engine.api.Result;
import io.derive.engine.api.Session;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.util.concurrent.TimeUnit;

/**
 * P1, what per-row maintenance of a materialized view costs an autocommit write: each measure on
 * {@code src}, which feeds the view {@code select id, a from src where b > 0}, is paired with its
 * floor, the same prepared statement on {@code plain}, a table of the same shape that feeds
 * nothing.
 *
 * <p>Every row has {@code b = 1}, so every write really maintains the view. Each trial gets a
 * fresh memory-hosted database with {@value #PRELOADED_ROWS} rows (keys {@code 0 .. n - 1}) in
 * each table. The three operations visit the same keys in the same order and see tables of the
 * same size: an update changes row {@code k}; an insert puts back row {@code k}, which an
 * untimed step removed just before; a delete removes row {@code k}, which an untimed step puts
 * back just after. Those untimed steps run per invocation, which adds the same few tens of
 * nanoseconds of timestamping to both sides of the insert and delete pairs.
 */
@Fork(jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class PerRowMaintenanceBenchmark {
    static final int PRELOADED_ROWS = 10_000;

    /**
     * The two tables and the view of one trial. The states of the untimed steps extend it rather
     * than receive it, because JMH would hand such a step an instance of its own.
     */
    @State(Scope.Thread)
    public static class Tables {
        /** Reachable from tests in this package, which check the view against its body. */
        Database database;
        private Session session;
        Statements source;
        Statements plain;
        private long writes;

        @Setup(Level.Trial)
        public void open() throws Exception {
            database = Derive.open(DatabaseConfig.named("per-row-maintenance-bench"));
            session = database.openSession();
            session.execute("""
                    create table src (id integer primary key, a integer, b integer)
                    """);
            session.execute("""
                    create table plain (id integer primary key, a integer, b integer)
                    """);
            session.execute("""
                    create materialized view src_mv as select id, a from src where b > 0
                    """);
            source = Statements.on(session, "src");
            plain = Statements.on(session, "plain");
            session.begin();
            LoadProgress.load("src and plain", PRELOADED_ROWS, key -> {
                source.insert().execute(key, key);
                plain.insert().execute(key, key);
            });
            session.commit();
            writes = 0;
        }

        @TearDown(Level.Trial)
        public void close() {
            session.close();
            database.close();
        }

        /** The key the next write of this trial touches: the preloaded keys in order, round and round. */
        long nextKey() {
            return writes++ % PRELOADED_ROWS;
        }
    }

    /** The prepared writes of one table. */
    record Statements(PreparedStatement insert, PreparedStatement update, PreparedStatement delete) {
        static Statements on(Session session, String table) {
            return new Statements(
                    session.prepare("insert into " + table + " (id, a, b) values (?, ?, 1)"),
                    session.prepare("update " + table + " set a = a + 1 where id = ?"),
                    session.prepare("delete from " + table + " where id = ?"));
        }
    }

    /** Row {@code key} of {@code src}, removed before the insert that puts it back is timed. */
    @State(Scope.Thread)
    public static class SourceKeyFree extends Tables {
        long key;

        @Setup(Level.Invocation)
        public void removeRow() {
            key = nextKey();
            source.delete().execute(key);
        }
    }

    /** Row {@code key} of {@code plain}, removed before the insert that puts it back is timed. */
    @State(Scope.Thread)
    public static class PlainKeyFree extends Tables {
        long key;

        @Setup(Level.Invocation)
        public void removeRow() {
            key = nextKey();
            plain.delete().execute(key);
        }
    }

    /** Row {@code key} of {@code src}, put back after the delete that removes it is timed. */
    @State(Scope.Thread)
    public static class SourceRowToDelete extends Tables {
        long key;

        @Setup(Level.Invocation)
        public void chooseRow() {
            key = nextKey();
        }

        @TearDown(Level.Invocation)
        public void restoreRow() {
            source.insert().execute(key, key);
        }
    }

    /** Row {@code key} of {@code plain}, put back after the delete that removes it is timed. */
    @State(Scope.Thread)
    public static class PlainRowToDelete extends Tables {
        long key;

        @Setup(Level.Invocation)
        public void chooseRow() {
            key = nextKey();
        }

        @TearDown(Level.Invocation)
        public void restoreRow() {
            plain.insert().execute(key, key);
        }
    }

    @Benchmark
    public Result insertWithMaterializedView(SourceKeyFree row) {
        return row.source.insert().execute(row.key, row.key);
    }

    @Benchmark
    public Result insertPlainTable(PlainKeyFree row) {
        return row.plain.insert().execute(row.key, row.key);
    }

    @Benchmark
    public Result updateByKeyWithMaterializedView(Tables tables) {
        return tables.source.update().execute(tables.nextKey());
    }

    @Benchmark
    public Result updateByKeyPlainTable(Tables tables) {
        return tables.plain.update().execute(tables.nextKey());
    }

    @Benchmark
    public Result deleteByKeyWithMaterializedView(SourceRowToDelete row) {
        return row.source.delete().execute(row.key);
    }

    @Benchmark
    public Result deleteByKeyPlainTable(PlainRowToDelete row) {
        return row.plain.delete().execute(row.key);
    }
}
