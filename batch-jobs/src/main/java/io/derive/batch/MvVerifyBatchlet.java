package io.derive.batch;

import io.derive.engine.api.Result;
import io.derive.engine.api.Row;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;

import jakarta.batch.api.BatchProperty;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import jakarta.inject.Named;

/**
 * The single step of {@code mv-verify}: compares a materialized view with a fresh evaluation of
 * its body ({@code verify materialized view}) and, with {@code repair=true}, rewrites exactly the
 * keys that differ. The job's exit status says what was found — {@code no drift}, or the drifted
 * keys by kind with a sample — and {@code verify_report()} keeps the same; the job completes
 * either way and fails only when the engine refuses, with the engine's message as exit status.
 */
@Named("mvVerifyBatchlet")
@Dependent
public class MvVerifyBatchlet extends ViewStatementBatchlet {

    private static final Logger LOG = System.getLogger(MvVerifyBatchlet.class.getName());
    private static final int SAMPLE = 10;

    @Inject
    @BatchProperty
    String repair;

    @Override
    public String process() {
        boolean repairing = Boolean.parseBoolean(repair);
        Result verified = run("verification", "verify materialized view ", repairing ? " repair" : "");
        String outcome = outcome(verified.rows(), repairing);
        LOG.log(verified.rows().isEmpty() ? Level.INFO : Level.WARNING, "verified materialized view {0}: {1}", view, outcome);
        jobContext.setExitStatus(outcome);
        return outcome;
    }

    /** {@code no drift}, or {@code 3 drifted keys (1 missing, 0 extra, 2 differs)[, repaired]: missing (1); …}. */
    static String outcome(List<Row> drift, boolean repaired) {
        if (drift.isEmpty()) {
            return "no drift";
        }
        long missing = drift.stream().filter(r -> "missing".equals(r.get("drift"))).count();
        long extra = drift.stream().filter(r -> "extra".equals(r.get("drift"))).count();
        List<String> sample = new ArrayList<>();
        for (Row r : drift.subList(0, Math.min(SAMPLE, drift.size()))) {
            sample.add(r.get("drift") + " " + r.get("key"));
        }
        return drift.size() + " drifted keys (" + missing + " missing, " + extra + " extra, "
                + (drift.size() - missing - extra) + " differs)" + (repaired ? ", repaired" : "") + ": " + String.join("; ", sample);
    }
}
