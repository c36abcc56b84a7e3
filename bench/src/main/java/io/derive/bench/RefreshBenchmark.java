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

import java.util.concurrent.TimeUnit;

/**
 * P5, what incremental maintenance saves over recomputing: an autocommit {@code refresh
 * materialized view} of the {@code rows}-row projection view {@code src_copy}, paired with one
 * single-row incremental maintenance of the same view, an autocommit update by key of
 * {@code src}. Both are reported in microseconds, so their ratio reads off directly, and
 * {@code rows} divided by the refresh time gives the refresh's own rows per second.
 *
 * <p>The refresh finds the view current, so it writes nothing: it is the cheapest refresh there
 * is (the whole body evaluated and diffed against the whole backing), which keeps the ratio from
 * being flattered by a slow refresh. Updates visit the keys with a prime stride.
 */
// The source and the view hold a million rows each, and a refresh materialises the body's rows.
@Fork(jvmArgsAppend = {"-Xms6g", "-Xmx6g"})
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class RefreshBenchmark {
    static final String VIEW_BODY = "select id, a from src";
    private static final long KEY_STRIDE = 7_919;

    @Param("1000000")
    public int rows;

    /** Reachable from tests in this package, which check the view against its body. */
    Database database;
    private Session session;
    private PreparedStatement refresh;
    private PreparedStatement update;
    private long updates;

    @Setup(Level.Trial)
    public void openDatabase() throws Exception {
        database = Derive.open(DatabaseConfig.named("refresh-bench"));
        session = database.openSession();
        session.execute("""
                create table src (id integer primary key, a integer not null)
                """);
        PreparedStatement insert = session.prepare("insert into src (id, a) values (?, ?)");
        session.begin();
        LoadProgress.load("src", rows, key -> insert.execute(key, key));
        session.commit();
        session.execute("create materialized view src_copy as " + VIEW_BODY);
        refresh = session.prepare("refresh materialized view src_copy");
        update = session.prepare("update src set a = a + 1 where id = ?");
        updates = 0;
    }

    @TearDown(Level.Trial)
    public void closeDatabase() {
        session.close();
        database.close();
    }

    @Benchmark
    public Result refreshMaterializedView() {
        return refresh.execute();
    }

    @Benchmark
    public Result updateOneSourceRow() {
        return update.execute(updates++ * KEY_STRIDE % rows);
    }
}
