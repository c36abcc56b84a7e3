package io.derive.engine.scenario.differential;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.Derive;
import io.derive.engine.api.Database;
import io.derive.engine.api.DeriveException;
import io.derive.engine.api.Result;
import io.derive.engine.api.Row;
import io.derive.engine.api.Session;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestReporter;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Differential test: random tables (about 30% NULLs) and random queries run on Derive, on SQLite
 * (the oracle: Derive follows its semantics) and, for queries in the common subset, on embedded
 * Derby in memory. Results must equal SQLite's, as lists under a total {@code order by}, else as
 * bags.
 *
 * <p>A query Derive answers with {@link DeriveException#FEATURE_NOT_SUPPORTED} is skipped for its
 * features; any other Derive error or a mismatch is a failure. The test fails only for failures
 * whose features are all {@linkplain #ENFORCED enforced}, so features still being built report a
 * pass rate without breaking the build; the per-feature table goes to the log and the test report.
 *
 * <p>System properties: {@code derive.diff.seed=S} replays database seed S ({@code S:I} only its
 * query I); {@code derive.diff.databases} and {@code derive.diff.queries} size the run (default
 * 50 × 50); {@code derive.diff.derbyQueries} caps the Derby comparisons (default 400: Derby
 * compiles each query, which costs far more than the rest); {@code derive.diff.base} moves the seeds; {@code derive.diff.enforce=ALL} or a comma
 * list of {@link Feature}s overrides the enforced set.
 */
public abstract class DifferentialSuite {
    private static final System.Logger LOG = System.getLogger(DifferentialSuite.class.getName());
    private static final AtomicLong DERBY_SCHEMAS = new AtomicLong();

    static {
        // Keep Derby's log out of the working directory.
        if (System.getProperty("derby.stream.error.file") == null) {
            System.setProperty("derby.stream.error.file", "target/derby.log");
        }
    }

    /** Features whose every query must match SQLite now: all of them. */
    public static final Set<Feature> ENFORCED = EnumSet.allOf(Feature.class);

    /** The configuration whose default host is the host under test. */
    protected abstract DatabaseConfig config();

    private Connection derby;
    private int derbyBudget;

    @Test
    void deriveReturnsWhatSqliteReturns(TestReporter reporter) throws SQLException {
        Set<Feature> enforced = enforced();
        FeatureStats stats = new FeatureStats();
        derbyBudget = Integer.getInteger("derive.diff.derbyQueries", 400);
        String derbyName = "derive-diff-" + ProcessHandle.current().pid() + "-" + DERBY_SCHEMAS.incrementAndGet();
        derby = DriverManager.getConnection("jdbc:derby:memory:" + derbyName + ";create=true");
        try {
            run(enforced, stats, reporter);
        } finally {
            derby.close();
            dropDerby(derbyName);
        }
    }

    private void run(Set<Feature> enforced, FeatureStats stats, TestReporter reporter) throws SQLException {
        String replay = System.getProperty("derive.diff.seed");
        if (replay != null) {
            String[] parts = replay.split(":");
            long seed = Long.parseLong(parts[0]);
            int only = parts.length > 1 ? Integer.parseInt(parts[1]) : -1;
            runDatabase(seed, only, Integer.getInteger("derive.diff.queries", 50), enforced, stats);
        } else {
            long base = Long.getLong("derive.diff.base", 20_261_201L);
            int databases = Integer.getInteger("derive.diff.databases", 50);
            int queries = Integer.getInteger("derive.diff.queries", 50);
            for (int d = 0; d < databases; d++) {
                runDatabase(base + d, -1, queries, enforced, stats);
            }
        }
        String summary = stats.summary(enforced);
        LOG.log(System.Logger.Level.INFO, summary);
        reporter.publishEntry("differential", summary);
        for (String failure : stats.failures()) {
            LOG.log(System.Logger.Level.INFO, "differs from SQLite: " + failure);
        }
        for (String disagreement : stats.derbyDisagreements()) {
            LOG.log(System.Logger.Level.INFO, "Derby disagrees with SQLite (not a Derive failure): " + disagreement);
        }
        assertThat(stats.enforcedFailures()).as("queries of enforced features that differ from SQLite\n" + summary)
                .isEmpty();
    }

    private static Set<Feature> enforced() {
        String property = System.getProperty("derive.diff.enforce");
        if (property == null) {
            return ENFORCED;
        }
        if (property.equalsIgnoreCase("ALL")) {
            return EnumSet.allOf(Feature.class);
        }
        Set<Feature> set = EnumSet.noneOf(Feature.class);
        for (String name : property.split(",")) {
            if (!name.isBlank()) {
                set.add(Feature.valueOf(name.strip().toUpperCase()));
            }
        }
        return set;
    }

    private void runDatabase(long seed, int only, int queries, Set<Feature> enforced, FeatureStats stats)
            throws SQLException {
        RandomDatabase data = new RandomDatabase(seed);
        long start = System.nanoTime();
        boolean withDerby = stats.derbyCompared() < derbyBudget;
        try (Database db = Derive.open(config());
             Session derive = db.openSession();
             Connection sqlite = DriverManager.getConnection("jdbc:sqlite::memory:")) {
            data.load(derive);
            data.load(sqlite, false);
            if (withDerby) {
                // One Derby database per run, a schema per data set: booting Derby is the slow part.
                try (Statement s = derby.createStatement()) {
                    String schema = "s" + DERBY_SCHEMAS.incrementAndGet();
                    s.execute("create schema " + schema);
                    s.execute("set schema " + schema);
                }
                data.load(derby, true);
            }
            stats.time("setup", start);
            for (int i = 0; i < queries; i++) {
                if (only >= 0 && i != only) {
                    continue;
                }
                GeneratedQuery query = QueryGenerator.generate(data, seed, i);
                compare(query, data, derive, sqlite, withDerby ? derby : null, enforced, stats);
            }
        }
    }

    private static void compare(GeneratedQuery query, RandomDatabase data, Session derive, Connection sqlite,
                                Connection derby, Set<Feature> enforced, FeatureStats stats) {
        List<List<Object>> expected;
        long start = System.nanoTime();
        try {
            expected = jdbc(sqlite, query.sql().sqlite());
            stats.time("sqlite", start);
        } catch (SQLException e) {
            LOG.log(System.Logger.Level.DEBUG, "SQLite rejects generated query " + query.id() + ": "
                    + query.sql().sqlite() + " — " + e.getMessage());
            stats.oracleRejected();
            return;
        }
        boolean isEnforced = enforced.containsAll(query.features());
        List<List<Object>> actual;
        start = System.nanoTime();
        try {
            actual = derive(derive, query.sql().sqlite());
            stats.time("derive", start);
        } catch (DeriveException e) {
            if (DeriveException.FEATURE_NOT_SUPPORTED.equals(e.code())) {
                stats.unsupported(query.features());
            } else {
                stats.failed(query, report(query, data, "Derive fails [" + e.code() + "]: " + e.getMessage()), isEnforced);
            }
            return;
        } catch (RuntimeException | StackOverflowError e) {
            stats.failed(query, report(query, data, "Derive throws a non-Derive exception: " + e), isEnforced);
            return;
        }
        if (!ResultRows.same(expected, actual, query.ordered(), false)) {
            stats.failed(query, report(query, data, "SQLite: " + ResultRows.show(expected)
                    + "\nDerive: " + ResultRows.show(actual)), isEnforced);
            return;
        }
        stats.passed(query.features());
        if (derby != null && query.sql().derbyCompatible()) {
            start = System.nanoTime();
            try {
                List<List<Object>> fromDerby = jdbc(derby, query.sql().derby());
                stats.time("derby", start);
                boolean agreed = ResultRows.same(expected, fromDerby, query.ordered(), true);
                stats.derby(agreed, agreed ? null : query.id() + " " + query.sql().derby() + "\nSQLite: "
                        + ResultRows.show(expected) + "\nDerby: " + ResultRows.show(fromDerby));
            } catch (SQLException e) {
                stats.derby(false, query.id() + " Derby rejects " + query.sql().derby() + ": " + e.getMessage());
            }
        }
    }

    private static String report(GeneratedQuery query, RandomDatabase data, String what) {
        return "query " + query.id() + " " + query.features() + (query.ordered() ? " ordered" : " as bag")
                + "\n  " + query.sql().sqlite() + "\n  " + what.replace("\n", "\n  ")
                + "\n  replay: -Dderive.diff.seed=" + query.id()
                + (Boolean.getBoolean("derive.diff.showData") ? "\n" + data.describe() : "");
    }

    private static List<List<Object>> jdbc(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            return ResultRows.of(rs);
        }
    }

    private static List<List<Object>> derive(Session session, String sql) {
        Result result = session.execute(sql);
        List<List<Object>> rows = new ArrayList<>();
        for (Row row : result.rows()) {
            rows.add(Arrays.asList(row.values().toArray()));
        }
        return ResultRows.of(rows);
    }

    private static void dropDerby(String name) {
        try {
            DriverManager.getConnection("jdbc:derby:memory:" + name + ";drop=true").close();
        } catch (SQLException expected) {
            // Derby reports a successful drop as an SQLException (state 08006).
        }
    }
}
