package io.derive.bench;

import io.derive.engine.api.Database;
import io.derive.engine.api.DatabaseConfig;
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
 * What per-row maintenance of a materialized view costs an autocommit write: each measure on
 * {@code src}, which feeds the view {@code select id, a from src where b > 0}, is paired with its
 * floor, the same statement on {@code plain}, a table of the same shape that feeds nothing.
 *
 * <p>Every row has {@code b = 1}, so every write really maintains the view. Each trial gets a
 * fresh memory-hosted database with {@value #PRELOADED_ROWS} rows in each table; inserts use keys
 * above those, updates cycle over them.
 */
// A fixed heap keeps heap resizing out of the figures; the inserted rows are retained until the
// end of each iteration.
@Fork(jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class PerRowMaintenanceBenchmark {
    static final int PRELOADED_ROWS = 10_000;

    private static final String INSERT_SOURCE = "insert into src (id, a, b) values (?, ?, 1)";
    private static final String INSERT_PLAIN = "insert into plain (id, a, b) values (?, ?, 1)";
    private static final String UPDATE_SOURCE = "update src set a = a + 1 where id = ?";
    private static final String UPDATE_PLAIN = "update plain set a = a + 1 where id = ?";

    /** Reachable from tests in this package, which check the view against its body. */
    Database database;
    private Session session;
    private long nextInsertKey;
    private long updates;

    @Setup(Level.Trial)
    public void openDatabase() {
        database = Database.open(DatabaseConfig.named("per-row-maintenance-bench"));
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
        session.begin();
        for (long key = 0; key < PRELOADED_ROWS; key++) {
            session.execute(INSERT_SOURCE, key, key);
            session.execute(INSERT_PLAIN, key, key);
        }
        session.commit();
        nextInsertKey = PRELOADED_ROWS;
        updates = 0;
    }

    /**
     * Removes the rows the previous iteration inserted, so that every iteration inserts into
     * tables of the same size and the retained rows do not pile up into garbage-collector time.
     */
    @Setup(Level.Iteration)
    public void removeInsertedRows() {
        session.execute("delete from src where id >= ?", PRELOADED_ROWS);
        session.execute("delete from plain where id >= ?", PRELOADED_ROWS);
        nextInsertKey = PRELOADED_ROWS;
    }

    @TearDown(Level.Trial)
    public void closeDatabase() {
        session.close();
        database.close();
    }

    @Benchmark
    public Result insertWithMaterializedView() {
        long key = nextInsertKey++;
        return session.execute(INSERT_SOURCE, key, key);
    }

    @Benchmark
    public Result insertPlainTable() {
        long key = nextInsertKey++;
        return session.execute(INSERT_PLAIN, key, key);
    }

    @Benchmark
    public Result updateByKeyWithMaterializedView() {
        return session.execute(UPDATE_SOURCE, updates++ % PRELOADED_ROWS);
    }

    @Benchmark
    public Result updateByKeyPlainTable() {
        return session.execute(UPDATE_PLAIN, updates++ % PRELOADED_ROWS);
    }
}
