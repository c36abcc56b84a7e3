package io.derive.engine.mvtest;

import io.derive.engine.api.Database;
import io.derive.engine.api.DeriveException;
import io.derive.engine.api.Session;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;

/**
 * The covering twin (issue 6): two Derive databases with the same table and UNIQUE, one of which
 * also holds the covering MV {@code cov}, run the same seeded {@link CoveringWorkload}. Whatever
 * structure answers the covered twin's conflict checks — its auto-index, or the MV once it is
 * linked to the constraint — the twins must accept and reject exactly the same statements with
 * the same message, and hold the same rows after every statement; {@code cov} must equal its
 * body and neither twin may hold a pair of rows breaking the UNIQUE.
 */
public final class CoveringTwinRun {

    private final Database plain;
    private final Database covered;
    private final CoveringTwin twin;
    private final long seed;
    private final DiffSupport read = new DiffSupport();
    private final List<String> history = new ArrayList<>();
    private final Map<String, Integer> kinds = new LinkedHashMap<>();

    public CoveringTwinRun(Database plain, Database covered, CoveringTwin twin, long seed) {
        this.plain = plain;
        this.covered = covered;
        this.twin = twin;
        this.seed = seed;
    }

    /** Runs {@code statements} random statements; never throws for a mismatch, it reports it. */
    public WorldOutcome run(int statements) {
        CoveringWorkload workload = new CoveringWorkload(new Random(seed), twin);
        int done = 0;
        String failure = null;
        try (Session p = plain.openSession(); Session c = covered.openSession()) {
            for (String ddl : twin.table()) {
                p.execute(ddl);
                c.execute(ddl);
                history.add(ddl + ";");
            }
            String cov = "create materialized view cov as " + twin.coveringBody();
            c.execute(cov);
            history.add(cov + ";  -- the covered twin only");
            while (failure == null && done < statements) {
                TransactionScript tx = workload.transactions();
                MvWorkload.Step step = done == statements - 1 && tx.inTransaction()
                        ? TransactionScript.commit() : workload.next();
                failure = execute(p, c, step, tx);
                done++;
                if (failure == null) {
                    failure = check(p, c, "after `" + step.sql() + "`");
                }
            }
        } catch (DeriveException e) {
            failure = "a setup statement failed: " + e.getMessage();
        }
        return new WorldOutcome(twin.name(), seed, done, kinds,
                failure == null ? null : DiffSupport.report(twin.name(), seed, failure, history));
    }

    private String execute(Session p, Session c, MvWorkload.Step step, TransactionScript tx) {
        String[] outcome = new String[2];
        Session[] twins = {p, c};
        for (int i = 0; i < 2; i++) {
            try {
                twins[i].execute(step.sql());
            } catch (DeriveException e) {
                outcome[i] = e.getMessage();
            } catch (RuntimeException e) {
                history.add(step.sql() + ";");
                return "a " + e.getClass().getName() + " reached the user of the " + (i == 0 ? "plain" : "covered")
                        + " twin: " + e.getMessage();
            }
        }
        history.add(step.sql() + ";" + (outcome[0] == null ? "" : "  -- fails: " + outcome[0]));
        kinds.merge(step.kind() + (outcome[0] == null ? "" : " (failed)"), 1, Integer::sum);
        tx.ran(step, outcome[0] == null);
        if (!Objects.equals(outcome[0], outcome[1])) {
            return "the twins disagree: plain " + (outcome[0] == null ? "succeeded" : "failed: " + outcome[0])
                    + "; covered " + (outcome[1] == null ? "succeeded" : "failed: " + outcome[1]);
        }
        return null;
    }

    private String check(Session p, Session c, String when) {
        try {
            List<String> plainRows = read.derive(p, "select * from t");
            List<String> coveredRows = read.derive(c, "select * from t");
            if (!plainRows.equals(coveredRows)) {
                return when + ": the twins' tables differ" + DiffSupport.diff(plainRows, coveredRows, "plain", "covered");
            }
            List<String> stored = read.derive(c, "select * from cov");
            List<String> body = read.derive(c, twin.coveringBody());
            if (!stored.equals(body)) {
                return when + ": cov differs from its body" + DiffSupport.diff(stored, body, "cov", "body");
            }
            List<String> broken = read.derive(c, twin.claimProbe());
            if (!broken.equals(List.of("i0"))) {
                return when + ": the covered twin holds " + broken + " pairs breaking the UNIQUE";
            }
            return null;
        } catch (DeriveException e) {
            return when + ": a check query failed: " + e.getMessage();
        }
    }
}
