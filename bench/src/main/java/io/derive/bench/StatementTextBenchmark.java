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
 * What running a statement by its text costs beside running it prepared, as an enterprise
 * application does through the resource adapter ({@code DeriveConnection.execute(sql, params)}):
 * a point query by key and an autocommit update by key of a table with a projection view, each
 * by text ({@code …ByText}, the measure) and through a prepared statement of the same text
 * ({@code …Prepared}, its floor), on both hosts. {@code statementCacheSize} 0 runs every text
 * afresh, as sessions did before they kept texts parsed.
 */
@Fork(jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class StatementTextBenchmark {
    static final String SELECT = "select v, w from t where k = ?";
    static final String UPDATE = "update t set v = v + 1 where k = ?";

    @State(Scope.Thread)
    public static class Table {
        @Param({"memory", "derby"})
        public String host;

        @Param({"64", "0"})
        public int statementCacheSize;

        @Param("10000")
        public int rows;

        Database database;
        Session session;
        PreparedStatement select;
        PreparedStatement update;
        private long next;

        @Setup(Level.Trial)
        public void open() throws Exception {
            DerbySettings.apply();
            database = Derive.open(DatabaseConfig.named("statement-text-" + host).withDefaultHost(host)
                    .withStatementCacheSize(statementCacheSize));
            session = database.openSession();
            session.execute("create table t (k integer primary key, v integer not null, w text)");
            session.execute("create materialized view t_proj as select k, v from t");
            session.begin();
            LoadProgress.load("t", rows, key -> session.execute("insert into t values (?, 0, 'row')", key));
            session.commit();
            select = session.prepare(SELECT);
            update = session.prepare(UPDATE);
        }

        /** The preloaded keys in order, round and round. */
        long nextKey() {
            return next++ % rows;
        }

        @TearDown(Level.Trial)
        public void close() {
            session.close();
            database.close();
        }
    }

    @Benchmark
    public Result selectByText(Table t) {
        return t.session.execute(SELECT, t.nextKey());
    }

    @Benchmark
    public Result selectPrepared(Table t) {
        return t.select.execute(t.nextKey());
    }

    @Benchmark
    public Result updateByText(Table t) {
        return t.session.execute(UPDATE, t.nextKey());
    }

    @Benchmark
    public Result updatePrepared(Table t) {
        return t.update.execute(t.nextKey());
    }
}
