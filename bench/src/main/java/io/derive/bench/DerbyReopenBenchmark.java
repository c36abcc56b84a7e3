package io.derive.bench;

import io.derive.derby.DerbyTableModule;
import io.derive.engine.Derive;
import io.derive.engine.api.Database;
import io.derive.engine.api.PreparedStatement;
import io.derive.engine.api.RehydrateReport;
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

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * P6, what rehydrate's adopt saves: {@code Derive.open(dir)} of a durable database holding the
 * source {@code src} and the {@code rows}-row materialized view {@value #VIEW} ({@value #VIEW_BODY}),
 * both on the Derby host, when the view is adopted (its rows kept, its body not run), paired with
 * the same open when the same view must be refilled from its body.
 *
 * <p>The view is made to need a refill by putting it in the durable stale set, the one adopt gate
 * that says nothing about the view's definition or host: an untimed step before each refilling
 * open sets its {@code stale} flag in the stored catalog, the state a schema change of its source
 * that it cannot follow leaves it in (semantics §5), without the schema change itself, so that the
 * source, the body and the rows stay those of the adopting side. The refill finds the backing already equal to the body, so it writes no
 * row: it is the cheapest refill there is, which keeps the ratio from being flattered.
 *
 * <p>Booting Derby is not timed: the untimed step before each open boots the Derby database in
 * {@code dir/derby} through a JDBC connection of its own (and closes the connection; Derby stays
 * booted), so the open finds it running; closing the Derive database after the open shuts the
 * Derby database down again, so every open starts from Derby's files, with a cold page cache.
 */
// The refill holds the body's million rows and the backing's in memory at once.
@Fork(jvmArgsAppend = {"-Xms6g", "-Xmx6g"})
@BenchmarkMode(Mode.SingleShotTime)
@Warmup(iterations = 2)
@Measurement(iterations = 5)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class DerbyReopenBenchmark {
    static final String VIEW = "m";
    static final String VIEW_BODY = "select id, a from src";
    static final String STALE_REASON = "it is in the durable stale set";

    /** A durable database with the view, reopened with the view adopted. */
    @State(Scope.Thread)
    public static class Adopting {
        @Param("1000000")
        public int rows;

        /** Reachable from tests in this package. */
        Path directory;
        Database database;

        @Setup(Level.Trial)
        public void createDatabase() throws Exception {
            DerbySettings.apply();
            directory = Files.createTempDirectory("derive-reopen-bench");
            try (Database created = Derive.open(directory); Session session = created.openSession()) {
                session.execute("create table src (id bigint primary key, a bigint not null)");
                PreparedStatement insert = session.prepare("insert into src (id, a) values (?, ?)");
                session.begin();
                LoadProgress.load("src (durable derby)", rows, key -> insert.execute(key, key));
                session.commit();
                session.execute("create materialized view " + VIEW + " as " + VIEW_BODY);
            }
        }

        /** Boots the Derby database the open will find, untimed; see the class comment. */
        @Setup(Level.Iteration)
        public void bootDerby() throws SQLException {
            try (Connection c = DriverManager.getConnection("jdbc:derby:" + derbyDirectory())) {
                beforeOpen(c);
            }
        }

        /** What the untimed step does on the booted Derby database besides booting it: nothing here. */
        void beforeOpen(Connection c) throws SQLException {
        }

        /** What the open must do with the view. */
        RehydrateReport.Action expectedAction() {
            return RehydrateReport.Action.ADOPTED;
        }

        Path derbyDirectory() {
            return DerbyTableModule.derbyDirectory(directory).toAbsolutePath().normalize();
        }

        Database open() {
            database = Derive.open(directory);
            return database;
        }

        /**
         * Closes the database the open gave, after checking it did what the benchmark claims to
         * measure: a figure for the wrong outcome would be worse than none.
         */
        @TearDown(Level.Iteration)
        public void closeDatabase() {
            if (database == null) {
                return;
            }
            try {
                List<RehydrateReport.Outcome> views = database.rehydrateReport().views();
                if (views.size() != 1 || views.get(0).action() != expectedAction()) {
                    throw new IllegalStateException("the open was to " + expectedAction() + " " + VIEW + ", it did " + views);
                }
            } finally {
                database.close();
                database = null;
            }
        }

        @TearDown(Level.Trial)
        public void deleteDatabase() throws IOException {
            try (Stream<Path> files = Files.walk(directory)) {
                for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }

    /** The same database, reopened with the same view in the durable stale set, hence refilled. */
    @State(Scope.Thread)
    public static class Refilling extends Adopting {
        @Override
        void beforeOpen(Connection c) throws SQLException {
            try (Statement s = c.createStatement()) {
                int marked = s.executeUpdate("update \"DERIVE\".\"CATALOG\" set \"stale\" = true"
                        + " where \"kind\" = 'table' and \"name\" = '" + VIEW + "'");
                if (marked != 1) {
                    throw new IllegalStateException("expected one catalog entry for " + VIEW + ", found " + marked);
                }
            }
        }

        @Override
        RehydrateReport.Action expectedAction() {
            return RehydrateReport.Action.REFILLED;
        }
    }

    @Benchmark
    public Database reopenAdoptingTheView(Adopting database) {
        return database.open();
    }

    @Benchmark
    public Database reopenRefillingTheView(Refilling database) {
        return database.open();
    }
}
