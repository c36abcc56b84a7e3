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
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.IterationParams;

import java.util.concurrent.TimeUnit;

/**
 * P1, what per-row maintenance of a materialized view costs an autocommit write: each write goes
 * either to {@code src}, which feeds the view {@code select id, a from src where b > 0} (the
 * measure), or to its floor {@code plain}, a table of the same shape that feeds nothing, through
 * the same prepared statement.
 *
 * <p>Which table an iteration writes is {@link Tables#side}: by default a run measures each side
 * on its own; with {@code -p side=alternating} the two alternate, iteration by iteration, measure
 * first, in one JVM, and {@link InterleavedRuns} pairs them up — on a machine whose memory-bound
 * work slows down in spells of seconds, forks of one side and then the other land in different
 * spells, neighbouring iterations in the same ones.
 *
 * <p>Every row has {@code b = 1}, so every write really maintains the view. Each trial gets a
 * fresh memory-hosted database with {@value #PRELOADED_ROWS} rows (keys {@code 0 .. n - 1}) in
 * each table. The three operations visit the same keys in the same order and see tables of the
 * same size: an update changes row {@code k}; an insert puts back row {@code k}, which an
 * untimed step removed just before; a delete removes row {@code k}, which an untimed step puts
 * back just after. Those untimed steps run per invocation, which adds the same few tens of
 * nanoseconds of timestamping to both sides.
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
        /** {@code measure} ({@code src}), {@code floor} ({@code plain}) or {@code alternating}. */
        @Param({"measure", "floor"})
        public String side;

        /** Reachable from tests in this package, which check the view against its body. */
        Database database;
        private Session session;
        Statements source;
        Statements plain;
        /** The statements of the table this iteration writes. */
        Statements target;
        private long writes;
        private final AlternatingIterations turns = new AlternatingIterations();

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

        /** Chooses this iteration's table. */
        @Setup(Level.Iteration)
        public void chooseTable(IterationParams iteration) {
            target = switch (side) {
                case "measure" -> source;
                case "floor" -> plain;
                case "alternating" -> turns.measureIn(iteration) ? source : plain;
                default -> throw new IllegalArgumentException("side is measure, floor or alternating, not " + side);
            };
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

    /** Row {@code key} of the iteration's table, removed before the insert that puts it back is timed. */
    @State(Scope.Thread)
    public static class KeyFree extends Tables {
        long key;

        @Setup(Level.Invocation)
        public void removeRow() {
            key = nextKey();
            target.delete().execute(key);
        }
    }

    /** Row {@code key} of the iteration's table, put back after the delete that removes it is timed. */
    @State(Scope.Thread)
    public static class RowToDelete extends Tables {
        long key;

        @Setup(Level.Invocation)
        public void chooseRow() {
            key = nextKey();
        }

        @TearDown(Level.Invocation)
        public void restoreRow() {
            target.insert().execute(key, key);
        }
    }

    @Benchmark
    public Result insert(KeyFree row) {
        return row.target.insert().execute(row.key, row.key);
    }

    @Benchmark
    public Result updateByKey(Tables tables) {
        return tables.target.update().execute(tables.nextKey());
    }

    @Benchmark
    public Result deleteByKey(RowToDelete row) {
        return row.target.delete().execute(row.key);
    }
}
