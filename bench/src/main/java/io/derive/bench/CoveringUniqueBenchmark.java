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
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * P7, what a covering MV costs a bulk insert into the table whose UNIQUE it covers (semantics §6):
 * {@code rows} rows inserted into an empty {@value #CREATE_TABLE} in one transaction, as a loader
 * would (one prepared single-row insert per row, then one commit), with the covering view
 * {@value #COVERING_VIEW}, paired with its floor, the same insert where only the auto-index
 * built for the UNIQUE answers it.
 *
 * <p>Every row passes the UNIQUE check; each insert probes the structure that answers it and the
 * covered side also maintains the view row by row. The keys of {@code a} are a prime-stride
 * permutation of {@code 0 .. rows - 1}, so consecutive rows land far apart in {@code (a, b)}
 * order, as they would for a table loaded in key order. One invocation is one whole load, long
 * enough to time alone (single shot); an untimed step before it drops and re-creates the table
 * (and the view), so every load starts empty. The JIT needs about ten loads of 10k rows to settle,
 * hence the long warmup. {@code host} puts the tables on the memory host or
 * on the Derby host ({@code using derby}); a Derby load of 100k rows takes some 20 s, so run it
 * with fewer iterations ({@code -p host=derby -wi 2 -i 3}).
 *
 * <p>Until the coverage prover links the view to the UNIQUE, the covered side pays the view's
 * maintenance on top of the auto-index probe; once linked, the view answers the probe (a
 * key-prefix seek) and the auto-index is only maintained. Either way the ratio is what a user
 * pays for declaring the covering view.
 */
@Fork(jvmArgsAppend = {"-Xms4g", "-Xmx4g"})
@BenchmarkMode(Mode.SingleShotTime)
@Warmup(iterations = 15)
@Measurement(iterations = 10)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class CoveringUniqueBenchmark {
    static final String CREATE_TABLE = "t (k integer primary key, a integer, b text, unique (a, b))";
    static final String COVERING_BODY = "select a, b, k from t order by a, b";
    static final String COVERING_VIEW = "cov as " + COVERING_BODY;
    static final String INSERT = "insert into t (k, a, b) values (?, ?, ?)";
    private static final long KEY_STRIDE = 7_919;

    /** Row {@code k}: {@code a} scattered over the keys, and a short text that repeats every ten rows. */
    static long a(long k, int rows) {
        return k * KEY_STRIDE % rows;
    }

    static String b(long k) {
        return "b" + k % 10;
    }

    /**
     * One trial's database and the floor's schema, the table alone: its UNIQUE is answered by the
     * auto-index. The covered side's state extends it, as the states of P1's untimed steps do.
     */
    @State(Scope.Thread)
    public static class Load {
        @Param({"10000", "100000"})
        public int rows;

        @Param({"memory", "derby"})
        public String host;

        /** Reachable from tests in this package, which check the loaded table and its view. */
        Database database;
        Session session;
        private PreparedStatement insert;

        @Setup(Level.Trial)
        public void open() {
            if (rows % KEY_STRIDE == 0) {
                throw new IllegalArgumentException("rows (" + rows + ") must not be a multiple of " + KEY_STRIDE);
            }
            database = host.equals("derby") ? DerbySettings.deriveOnDerby("covering-unique-bench")
                    : Derive.open(DatabaseConfig.named("covering-unique-bench"));
            session = database.openSession();
        }

        /** An empty table (and, on the covered side, its view) before each load. */
        @Setup(Level.Invocation)
        public void recreate() {
            session.execute("drop materialized view if exists cov");
            session.execute("drop table if exists t");
            session.execute("create table " + CREATE_TABLE);
            createCoveringStructure(session);
            insert = session.prepare(INSERT);
        }

        void createCoveringStructure(Session session) {
            // The UNIQUE's own auto-index is the only structure.
        }

        int load() {
            session.begin();
            for (long k = 0; k < rows; k++) {
                insert.execute(k, a(k, rows), b(k));
            }
            session.commit();
            return rows;
        }

        @TearDown(Level.Trial)
        public void close() {
            session.close();
            database.close();
        }
    }

    /** The table with its covering view. */
    @State(Scope.Thread)
    public static class Covered extends Load {
        @Override
        void createCoveringStructure(Session session) {
            session.execute("create materialized view " + COVERING_VIEW);
        }
    }

    @Benchmark
    public int bulkInsertWithCoveringView(Covered load) {
        return load.load();
    }

    @Benchmark
    public int bulkInsertWithAutoIndexOnly(Load load) {
        return load.load();
    }
}
