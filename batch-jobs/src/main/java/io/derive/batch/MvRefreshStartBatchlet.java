package io.derive.batch;

import jakarta.batch.runtime.BatchStatus;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Named;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;

/**
 * The first step of {@code mv-refresh}: takes the view's refresh lease for this job instance
 * ({@code refresh materialized view v start run 'mv-refresh:<instance>'}), or resumes it on a
 * restart. It runs on every execution, a restart too, so that a lease a crashed server held is
 * taken again; while another instance holds the lease the engine refuses, and the job fails
 * with the engine's message ({@code … is being refreshed by run …}) as exit status.
 */
@Named("mvRefreshStartBatchlet")
@Dependent
public class MvRefreshStartBatchlet extends ViewStatementBatchlet {

    private static final Logger LOG = System.getLogger(MvRefreshStartBatchlet.class.getName());

    @Override
    public String process() {
        var started = run("start of refresh", "refresh materialized view ", " start run " + RunName.literal(jobContext))
                .rows().get(0);
        LOG.log(Level.INFO, "refresh of materialized view {0}: run {1} {2} with {3} rows already in {4}", view,
                started.get("run"), ((Number) started.get("resumed")).longValue() == 1 ? "resumed" : "started",
                started.get("rows"), started.get("shadow"));
        return BatchStatus.COMPLETED.name();
    }
}
