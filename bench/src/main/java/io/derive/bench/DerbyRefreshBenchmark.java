package io.derive.bench;

import io.derive.engine.api.Database;
import io.derive.engine.api.PreparedStatement;
import io.derive.engine.api.Result;
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

import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.TimeUnit;

/**
 * P4, what a full refresh of a group-by view costs on the Derby host: an autocommit {@code
 * refresh materialized view g} of {@value #GROUP_BODY} over the {@code rows}-row source {@code s},
 * paired with its floor, Derby computing the same groups itself into a plain table {@code g}:
 * {@code delete from g} and {@value #DERBY_FILL} in one transaction, committed before the call
 * returns, the shape of the refresh's own transaction. {@code rows} divided by the refresh time
 * is the refresh's rows per second.
 *
 * <p>Row {@code k} of {@code s} is {@code (k, k % GROUPS, k)}: {@value #GROUPS} groups, so the
 * work is reading and grouping the source, not writing the result. The refresh finds the view
 * current and writes nothing (the body evaluated and diffed against the backing), while the floor
 * deletes and inserts its {@value #GROUPS} rows; at this number of groups that difference is well
 * below the noise of reading a million rows. Each call is timed on its own (single shot): one
 * call reads the whole source.
 *
 * <p>{@code aggregatesInDerby} is the Derby host's option: {@code true} (its default) lets Derby
 * group the source for the engine, {@code false} has the engine read every row and group them.
 */
// A million source rows on both sides, with Derby's page caches.
@Fork(jvmArgsAppend = {"-Xms6g", "-Xmx6g"})
@BenchmarkMode(Mode.SingleShotTime)
@Warmup(iterations = 3)
@Measurement(iterations = 5)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class DerbyRefreshBenchmark {
    static final int GROUPS = 1_000;
    /** The same schema on both sides: Derive reads {@code bigint} as an alias of {@code integer}. */
    static final String CREATE_SOURCE = """
            create table s (id bigint primary key, k bigint not null, v bigint not null)
            """;
    static final String INSERT = "insert into s (id, k, v) values (?, ?, ?)";
    static final String GROUP_BODY = "select k, count(*) as n, sum(v) as total from s group by k";
    static final String DERBY_FILL = "insert into g (k, n, total) " + GROUP_BODY;

    /** The Derive side: {@code s} on the Derby host and the view {@code g} over it. */
    @State(Scope.Thread)
    public static class DeriveSource {
        @Param("1000000")
        public int rows;

        @Param({"true", "false"})
        public boolean aggregatesInDerby;

        /** Reachable from tests in this package, which check the view against its body. */
        Database database;
        Session session;
        private PreparedStatement refresh;

        @Setup(Level.Trial)
        public void open() throws Exception {
            database = DerbySettings.deriveOnDerby("derby-refresh-bench",
                    new io.derive.derby.DerbyTableModule().withAggregatesInDerby(aggregatesInDerby));
            session = database.openSession();
            session.execute(CREATE_SOURCE);
            PreparedStatement insert = session.prepare(INSERT);
            session.begin();
            LoadProgress.load("s (derive on derby)", rows, key -> insert.execute(key, key % GROUPS, key));
            session.commit();
            session.execute("create materialized view g as " + GROUP_BODY);
            refresh = session.prepare("refresh materialized view g");
        }

        @TearDown(Level.Trial)
        public void close() {
            session.close();
            database.close();
        }
    }

    /** The Derby floor: the same {@code s} and a plain table {@code g} filled from it. */
    @State(Scope.Thread)
    public static class DerbySource {
        @Param("1000000")
        public int rows;

        /** Reachable from tests in this package, which compare the two sides. */
        DerbyMemoryDatabase database;
        private java.sql.PreparedStatement deleteAll;
        private java.sql.PreparedStatement fill;

        @Setup(Level.Trial)
        public void open() throws Exception {
            database = DerbyMemoryDatabase.create("derby-refresh-bench");
            database.execute(CREATE_SOURCE);
            database.execute("create table g (k bigint primary key, n bigint not null, total bigint not null)");
            Connection c = database.connection();
            c.setAutoCommit(false);
            try (java.sql.PreparedStatement insert = c.prepareStatement(INSERT)) {
                LoadProgress.load("s (derby)", rows, key -> {
                    insert.setLong(1, key);
                    insert.setLong(2, key % GROUPS);
                    insert.setLong(3, key);
                    insert.executeUpdate();
                });
            }
            deleteAll = c.prepareStatement("delete from g");
            fill = c.prepareStatement(DERBY_FILL);
            fill.executeUpdate();
            c.commit();
        }

        /** One refresh: the old groups out, the new ones in, committed; returns the groups written. */
        int refresh() throws SQLException {
            deleteAll.executeUpdate();
            int groups = fill.executeUpdate();
            database.connection().commit();
            return groups;
        }

        @TearDown(Level.Trial)
        public void close() throws SQLException {
            deleteAll.close();
            fill.close();
            database.connection().rollback();
            database.close();
        }
    }

    @Benchmark
    public Result refreshDeriveView(DeriveSource source) {
        return source.refresh.execute();
    }

    @Benchmark
    public int refreshDerbyTable(DerbySource source) throws SQLException {
        return source.refresh();
    }
}
