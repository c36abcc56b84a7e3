package io.derive.engine.mvtest;

import io.derive.engine.api.Database;
import io.derive.engine.api.DeriveException;
import io.derive.engine.api.Row;
import io.derive.engine.api.Session;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * One world of the MV differential test: a Derive database and a SQLite connection holding the
 * same sources, the world's MVs on Derive and the same bodies as plain views on SQLite, driven by
 * one seeded {@link MvWorkload}. After every statement (transaction control included) each MV must
 * equal a fresh evaluation of its body and, where SQLite runs the body, SQLite's view; the sources
 * must agree and so must each statement's success.
 */
public final class MvDifferentialRun {

    /** What a world did: statements run, checks per shape, the arm of each shape, refusals. */
    public record Outcome(String world, long seed, int statements, Map<String, Integer> checksPerShape,
                          Map<String, String> arms, Map<String, Integer> statementsPerKind,
                          List<String> gateRefusals, String failure) {
    }

    private static final String[] SOURCES = {"a", "b", "c"};

    private final Database db;
    private final Connection sqlite;
    private final String world;
    private final long seed;
    private final List<String> history = new ArrayList<>();
    private final List<MvShape> live = new ArrayList<>();
    private final Map<String, Integer> checks = new LinkedHashMap<>();
    private final Map<String, String> arms = new LinkedHashMap<>();
    private final Map<String, Integer> kinds = new LinkedHashMap<>();
    private final List<String> refusals = new ArrayList<>();
    private final Map<String, io.derive.engine.api.PreparedStatement> deriveQueries = new HashMap<>();
    private final Map<String, java.sql.PreparedStatement> sqliteQueries = new HashMap<>();

    public MvDifferentialRun(Database db, Connection sqlite, String world, long seed) {
        this.db = db;
        this.sqlite = sqlite;
        this.world = world;
        this.seed = seed;
    }

    /** Runs {@code statements} random statements; never throws for a mismatch, it reports it. */
    public Outcome run(int statements) throws SQLException {
        MvWorkload workload = new MvWorkload(new Random(seed));
        int done = 0;
        String failure = null;
        try (Session s = db.openSession(); Statement lite = sqlite.createStatement()) {
            lite.execute("pragma foreign_keys = on");
            for (String ddl : MvShapeCatalog.SOURCE_DDL) {
                s.execute(ddl);
                lite.execute(ddl);
                history.add(ddl + ";");
            }
            for (String seedRow : workload.seedRows()) {
                s.execute(seedRow);
                lite.execute(seedRow);
                history.add(seedRow + ";");
            }
            for (MvShape shape : MvShapeCatalog.shapesOf(world)) {
                failure = create(s, lite, shape);
                if (failure != null) {
                    break;
                }
            }
            if (failure == null) {
                failure = check(s, "after create");
            }
            while (failure == null && done < statements) {
                MvWorkload.Step step = done == statements - 1 && workload.inTransaction() ? workload.end() : workload.next();
                failure = execute(s, lite, workload, step);
                done++;
                if (failure == null) {
                    failure = check(s, "after `" + step.sql() + "`");
                }
            }
            if (failure == null && workload.inTransaction()) {
                failure = execute(s, lite, workload, new MvWorkload.Step(MvWorkload.Kind.COMMIT, "commit"));
            }
            if (failure == null) {
                failure = checkSources(s, "at the end");
            }
        }
        return new Outcome(world, seed, done, checks, arms, kinds, refusals,
                failure == null ? null : DiffSupport.report(world, seed, failure, history));
    }

    private String create(Session s, Statement lite, MvShape shape) throws SQLException {
        String ddl = "create materialized view " + shape.name() + " as " + shape.body();
        try {
            s.execute(ddl);
        } catch (DeriveException e) {
            if (e.getMessage().contains("cannot be materialized:")) {
                refusals.add(shape.name() + ": " + e.getMessage());
                return null;
            }
            return "create of " + shape.name() + " refused outside the gates of §3: " + e.getMessage();
        }
        history.add(ddl + ";");
        if (shape.sqliteBody() != null) {
            lite.execute("create view " + shape.name() + " as " + shape.sqliteBody());
        }
        arms.put(shape.name(), String.valueOf(s.execute("select arm from materialized_views() where name = ?",
                shape.name()).rows().get(0).get(0)));
        live.add(shape);
        return null;
    }

    private String execute(Session s, Statement lite, MvWorkload workload, MvWorkload.Step step) {
        String derive = null;
        try {
            s.execute(step.sql());
        } catch (DeriveException e) {
            derive = e.getMessage();
        } catch (RuntimeException e) {
            history.add(step.sql() + ";");
            return "a " + e.getClass().getName() + " reached the user: " + e.getMessage() + stack(e);
        }
        String oracle = null;
        try {
            lite.execute(step.sql());
        } catch (SQLException e) {
            oracle = e.getMessage();
        }
        history.add(step.sql() + ";" + (derive == null ? "" : "  -- fails: " + derive));
        kinds.merge(step.kind() + (derive == null ? "" : " (failed)"), 1, Integer::sum);
        if ((derive == null) != (oracle == null)) {
            return "statement outcome differs: Derive " + (derive == null ? "succeeded" : "failed: " + derive)
                    + "; SQLite " + (oracle == null ? "succeeded" : "failed: " + oracle);
        }
        if (derive == null) {
            workload.succeeded(step);
        }
        return null;
    }

    /**
     * Each MV against its body and SQLite's view. The sources are compared only to explain a
     * mismatch with SQLite and at the end of the run: they cost as much as the MVs to read, and a
     * source that drifted shows up as an MV mismatch first.
     */
    private String check(Session s, String when) {
        try {
            for (MvShape shape : live) {
                List<String> stored = BagRows.of(derive(s, "select * from " + shape.name()), shape.listColumns());
                List<String> body = BagRows.of(derive(s, shape.body()), shape.listColumns());
                if (!stored.equals(body)) {
                    return when + ": MV " + shape.name() + " differs from its body" + DiffSupport.diff(stored, body, "MV", "body");
                }
                if (shape.sqliteBody() != null) {
                    List<String> oracle = BagRows.of(sqlite("select * from " + shape.name()), shape.listColumns());
                    if (!stored.equals(oracle)) {
                        String sources = checkSources(s, when);
                        return when + ": MV " + shape.name() + " differs from SQLite's view" + DiffSupport.diff(stored, oracle, "MV", "SQLite")
                                + (sources == null ? "\n  (the sources agree)" : "\n  " + sources);
                    }
                }
                checks.merge(shape.name(), 1, Integer::sum);
            }
            return null;
        } catch (DeriveException | SQLException e) {
            return when + ": a check query failed: " + e.getMessage();
        }
    }

    private String checkSources(Session s, String when) throws SQLException {
        for (String source : SOURCES) {
            String q = "select * from " + source;
            List<String> mine = BagRows.of(derive(s, q), Set.of());
            List<String> theirs = BagRows.of(sqlite(q), Set.of());
            if (!mine.equals(theirs)) {
                return when + ": source " + source + " differs from SQLite" + DiffSupport.diff(mine, theirs, "Derive", "SQLite");
            }
        }
        return null;
    }

    /** Check queries run thousands of times: prepared once, so the plan cache serves them. */
    private List<List<Object>> derive(Session s, String query) {
        List<List<Object>> rows = new ArrayList<>();
        for (Row r : deriveQueries.computeIfAbsent(query, s::prepare).execute().rows()) {
            rows.add(r.values());
        }
        return rows;
    }

    private List<List<Object>> sqlite(String query) throws SQLException {
        List<List<Object>> rows = new ArrayList<>();
        java.sql.PreparedStatement st = sqliteQueries.get(query);
        if (st == null) {
            st = sqlite.prepareStatement(query);
            sqliteQueries.put(query, st);
        }
        try (ResultSet rs = st.executeQuery()) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                List<Object> row = new ArrayList<>(n);
                for (int i = 1; i <= n; i++) {
                    row.add(rs.getObject(i));
                }
                rows.add(row);
            }
        }
        return rows;
    }

    private static String stack(RuntimeException e) {
        StringBuilder out = new StringBuilder();
        StackTraceElement[] trace = e.getStackTrace();
        for (int i = 0; i < Math.min(8, trace.length); i++) {
            out.append("\n    at ").append(trace[i]);
        }
        return out.toString();
    }
}
