package io.derive.batch;

import jakarta.batch.runtime.BatchStatus;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Named;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;

/**
 * The last step of {@code mv-attach}: attaches the derivation ({@code alter table t attach
 * finish run …}) by a last keyed diff against the sources as they are now, the derived rows
 * checked against the table's declared constraints, and releases the lease; from its commit on
 * the table is maintained. The exit status says how many rows that diff changed.
 */
@Named("mvAttachFinishBatchlet")
@Dependent
public class MvAttachFinishBatchlet extends ViewStatementBatchlet {

    private static final Logger LOG = System.getLogger(MvAttachFinishBatchlet.class.getName());

    @Override
    public String process() {
        var finished = run("finish of attach", "alter table ", " attach finish run " + RunName.literal(jobContext))
                .rows().get(0);
        String outcome = "attached: " + finished.get("changed") + " rows changed at finish";
        LOG.log(Level.INFO, "table {0} {1}", view, outcome);
        jobContext.setExitStatus(outcome);
        return BatchStatus.COMPLETED.name();
    }
}
