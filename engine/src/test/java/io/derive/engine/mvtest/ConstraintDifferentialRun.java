package io.derive.engine.mvtest;

import io.derive.engine.api.Database;
import io.derive.engine.api.DeriveException;
import io.derive.engine.api.Session;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The constraint world of the MV differential test (issue 6): a Derive database holding the
 * {@link ConstraintWorld} and a SQLite connection holding its trigger mirror, driven by one seeded
 * {@link ConstraintWorkload}. Each maintained table is created over a few source rows, and the
 * create (the bulk path) must fail exactly when plain queries over its body find a row breaking a
 * claim. After every statement:
 * <ul>
 * <li>Derive failed exactly when SQLite did, so a statement fails exactly when one of its derived
 *     rows breaks a declared claim;</li>
 * <li>every table and the MV equal SQLite's, so a failed statement (or a failed commit, after
 *     which SQLite is rolled back as Derive was) left no trace;</li>
 * <li>each maintained table and the MV equal a fresh evaluation of their bodies;</li>
 * <li>plain queries find no row breaking a CHECK or a UNIQUE, nor a child referencing a missing
 *     row of {@code m}, and — outside a transaction, where the committed state is what is seen —
 *     no derived row referencing a missing parent (that one is checked at commit).</li>
 * </ul>
 */
public final class ConstraintDifferentialRun {

    public static final String WORLD = "constraints";

    private final Database db;
    private final Connection sqlite;
    private final long seed;
    private final DiffSupport read = new DiffSupport();
    private final List<String> history = new ArrayList<>();
    private final Map<String, Integer> kinds = new LinkedHashMap<>();

    public ConstraintDifferentialRun(Database db, Connection sqlite, long seed) {
        this.db = db;
        this.sqlite = sqlite;
        this.seed = seed;
    }

    /** Runs {@code statements} random statements; never throws for a mismatch, it reports it. */
    public WorldOutcome run(int statements) throws SQLException {
        ConstraintWorkload workload = new ConstraintWorkload(new Random(seed));
        int done = 0;
        String failure = null;
        try (Session s = db.openSession(); Statement lite = sqlite.createStatement()) {
            lite.execute("pragma foreign_keys = on");
            // A REPLACE then deletes the row it replaces through the delete trigger, as Derive does.
            lite.execute("pragma recursive_triggers = on");
            for (String ddl : ConstraintWorld.PLAIN_DDL) {
                s.execute(ddl);
                lite.execute(ddl);
                history.add(ddl + ";");
            }
            for (String row : workload.seedRows()) {
                if (failure == null) {
                    failure = execute(s, lite, workload, new MvWorkload.Step(MvWorkload.Kind.WRITE, row));
                }
            }
            for (ConstraintWorld.Maintained m : ConstraintWorld.MAINTAINED) {
                if (failure == null) {
                    failure = createFilled(s, lite, m);
                }
            }
            for (String ddl : ConstraintWorld.CHILD_DDL) {
                s.execute(ddl);
                lite.execute(ddl);
                history.add(ddl + ";");
            }
            String mv = "create materialized view " + ConstraintWorld.MV_NAME + " as " + ConstraintWorld.MV_BODY;
            s.execute(mv);
            lite.execute("create view " + ConstraintWorld.MV_NAME + " as " + ConstraintWorld.MV_BODY);
            history.add(mv + ";");
            if (failure == null) {
                failure = check(s, sqlite, false, "after the creates");
            }
            while (failure == null && done < statements) {
                TransactionScript tx = workload.transactions();
                MvWorkload.Step step = done == statements - 1 && tx.inTransaction()
                        ? TransactionScript.commit() : workload.next();
                failure = execute(s, lite, workload, step);
                done++;
                if (failure == null) {
                    failure = check(s, sqlite, tx.inTransaction(), "after `" + step.sql() + "`");
                }
            }
        } catch (DeriveException e) {
            failure = "a setup statement failed: " + e.getMessage();
        }
        return new WorldOutcome(WORLD, seed, done, kinds,
                failure == null ? null : DiffSupport.report(WORLD, seed, failure, history));
    }

    /**
     * The bulk path: the create fills {@code m} from the rows {@code t} already holds and validates
     * them all, so it must fail exactly when plain queries over the body (a SQLite view) find a
     * row breaking a claim. When it fails, {@code t} is emptied and the create runs again.
     */
    private String createFilled(Session s, Statement lite, ConstraintWorld.Maintained m) throws SQLException {
        String body = "body_of_" + m.name();
        lite.execute("create temp view " + body + " as " + m.body());
        List<String> probes = new ArrayList<>(m.rowClaimProbes(body));
        probes.addAll(m.referenceProbes(body));
        boolean breaks = false;
        for (String probe : probes) {
            try (ResultSet rs = lite.executeQuery(probe)) {
                breaks |= rs.next() && rs.getLong(1) > 0;
            }
        }
        lite.execute("drop view " + body);
        String derive = null;
        try {
            s.execute(m.deriveDdl());
        } catch (DeriveException e) {
            derive = e.getMessage();
        }
        history.add(m.deriveDdl() + ";" + (derive == null ? "" : "  -- fails: " + derive));
        kinds.merge("CREATE FILL" + (derive == null ? "" : " (failed: " + cause(derive) + ")"), 1, Integer::sum);
        if ((derive != null) != breaks) {
            return "create of " + m.name() + (derive == null ? " succeeded though its body breaks a claim"
                    : " failed though its body breaks no claim: " + derive);
        }
        if (derive != null) {
            s.execute("delete from t");
            lite.execute("delete from t");
            s.execute(m.deriveDdl());
            history.add("delete from t;");
            history.add(m.deriveDdl() + ";");
        }
        for (String ddl : m.sqliteDdl()) {
            lite.execute(ddl);
        }
        lite.execute("insert into " + m.name() + " select * from (" + m.body() + ")");
        return null;
    }

    private String execute(Session s, Statement lite, ConstraintWorkload workload, MvWorkload.Step step) {
        String derive = null;
        try {
            s.execute(step.sql());
        } catch (DeriveException e) {
            derive = e.getMessage();
        } catch (RuntimeException e) {
            history.add(step.sql() + ";");
            return "a " + e.getClass().getName() + " reached the user: " + e.getMessage();
        }
        String oracle = null;
        try {
            lite.execute(step.sql());
        } catch (SQLException e) {
            oracle = e.getMessage();
        }
        if (oracle != null && step.kind() == MvWorkload.Kind.COMMIT) {
            // SQLite keeps the transaction open after a failed commit; Derive has rolled it back.
            try {
                lite.execute("rollback");
            } catch (SQLException e) {
                return "SQLite could not roll back after its failed commit: " + e.getMessage();
            }
        }
        history.add(step.sql() + ";" + (derive == null ? "" : "  -- fails: " + derive));
        kinds.merge(step.kind() + (derive == null ? "" : " (failed: " + cause(derive) + ")"), 1, Integer::sum);
        workload.transactions().ran(step, derive == null);
        if ((derive == null) != (oracle == null)) {
            return "statement outcome differs: Derive " + (derive == null ? "succeeded" : "failed: " + derive)
                    + "; SQLite " + (oracle == null ? "succeeded" : "failed: " + oracle);
        }
        return null;
    }

    /** What broke, to show that the run meets every claim: the constraint kind, and whose it is. */
    private static String cause(String message) {
        int end = message.indexOf(" constraint failed");
        String kind = end < 0 ? message : message.substring(0, end);
        return message.contains("row derived into maintained table") ? kind + " of a derived row"
                : message.contains("DELETE on 'm'") ? kind + " from a child of m" : kind;
    }

    private String check(Session s, Connection lite, boolean inTransaction, String when) {
        try {
            for (String table : ConstraintWorld.TABLES) {
                String q = "select * from " + table;
                List<String> mine = read.derive(s, q);
                List<String> theirs = read.sqlite(lite, q);
                if (!mine.equals(theirs)) {
                    return when + ": " + table + " differs from SQLite" + DiffSupport.diff(mine, theirs, "Derive", "SQLite");
                }
            }
            Map<String, String> bodies = new LinkedHashMap<>();
            ConstraintWorld.MAINTAINED.forEach(m -> bodies.put(m.name(), m.body()));
            bodies.put(ConstraintWorld.MV_NAME, ConstraintWorld.MV_BODY);
            for (Map.Entry<String, String> body : bodies.entrySet()) {
                List<String> stored = read.derive(s, "select * from " + body.getKey());
                List<String> fresh = read.derive(s, body.getValue());
                if (!stored.equals(fresh)) {
                    return when + ": " + body.getKey() + " differs from its body"
                            + DiffSupport.diff(stored, fresh, "stored", "body");
                }
            }
            List<String> probes = new ArrayList<>(ConstraintWorld.CHILD_PROBES);
            for (ConstraintWorld.Maintained m : ConstraintWorld.MAINTAINED) {
                probes.addAll(m.rowClaimProbes(m.name()));
                if (!inTransaction) {
                    probes.addAll(m.referenceProbes(m.name()));
                }
            }
            for (String probe : probes) {
                List<String> count = read.derive(s, probe);
                if (!count.equals(List.of("i0"))) {
                    return when + ": a declared claim is broken in the visible state: `" + probe + "` gives " + count;
                }
            }
            return null;
        } catch (DeriveException | SQLException e) {
            return when + ": a check query failed: " + e.getMessage();
        }
    }
}
