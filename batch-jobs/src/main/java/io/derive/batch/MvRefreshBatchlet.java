package io.derive.batch;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;

import jakarta.batch.runtime.BatchStatus;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Named;

/**
 * The single step of {@code mv-refresh}: recomputes a materialized view's backing from its body
 * with {@code refresh materialized view}. When the engine refuses, the job's exit status is the
 * engine's message and the job fails.
 */
@Named("mvRefreshBatchlet")
@Dependent
public class MvRefreshBatchlet extends ViewStatementBatchlet {

    private static final Logger LOG = System.getLogger(MvRefreshBatchlet.class.getName());

    @Override
    public String process() {
        run("refresh", "refresh materialized view ", "");
        LOG.log(Level.INFO, "refreshed materialized view {0}", view);
        return BatchStatus.COMPLETED.name();
    }
}
