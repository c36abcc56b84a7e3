package io.derive.batch;

import jakarta.batch.runtime.BatchStatus;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Named;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;

/**
 * The last step of {@code mv-refresh}: publishes the run ({@code refresh materialized view v
 * finish run …}): the view takes the rows the chunks wrote, made exactly its body by a keyed diff
 * against the sources as they are now, and the lease is released. The exit status says how many
 * rows that diff changed and whether the view took the run's storage or was refreshed in place.
 */
@Named("mvRefreshFinishBatchlet")
@Dependent
public class MvRefreshFinishBatchlet extends ViewStatementBatchlet {

    private static final Logger LOG = System.getLogger(MvRefreshFinishBatchlet.class.getName());

    @Override
    public String process() {
        var finished = run("finish of refresh", "refresh materialized view ", " finish run " + RunName.literal(jobContext))
                .rows().get(0);
        String outcome = "refreshed: " + finished.get("changed") + " rows changed at finish, "
                + (((Number) finished.get("swapped")).longValue() == 1 ? "swapped in" : "in place");
        LOG.log(Level.INFO, "materialized view {0} {1}", view, outcome);
        jobContext.setExitStatus(outcome);
        return BatchStatus.COMPLETED.name();
    }
}
