package io.derive.batch;

import io.derive.client.DeriveConnection;
import io.derive.client.DeriveConnectionFactory;
import io.derive.engine.api.DeriveException;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;

import jakarta.annotation.Resource;
import jakarta.batch.api.AbstractBatchlet;
import jakarta.batch.api.BatchProperty;
import jakarta.batch.runtime.BatchStatus;
import jakarta.batch.runtime.context.JobContext;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import jakarta.inject.Named;

/**
 * The single step of {@code mv-refresh}: recomputes a materialized view's backing from its body
 * with {@code refresh materialized view}. When the engine refuses, the job's exit status is the
 * engine's message and the job fails.
 */
@Named("mvRefreshBatchlet")
@Dependent
public class MvRefreshBatchlet extends AbstractBatchlet {

    private static final Logger LOG = System.getLogger(MvRefreshBatchlet.class.getName());

    @Inject
    @BatchProperty
    String view;

    @Inject
    JobContext jobContext;

    @Resource(lookup = "eis/derive")
    DeriveConnectionFactory connectionFactory;

    @Override
    public String process() {
        if (!Identifiers.isIdentifier(view)) {
            // The name goes into SQL text, so anything but a plain identifier is refused outright.
            String message = "invalid materialized view name: " + view;
            jobContext.setExitStatus(message);
            throw new IllegalArgumentException(message);
        }
        try (DeriveConnection connection = connectionFactory.getConnection()) {
            connection.execute("refresh materialized view " + view);
        } catch (DeriveException e) {
            LOG.log(Level.WARNING, "refresh of materialized view {0} failed: {1}", view, e.getMessage());
            jobContext.setExitStatus(e.getMessage());
            throw e;
        }
        LOG.log(Level.INFO, "refreshed materialized view {0}", view);
        return BatchStatus.COMPLETED.name();
    }
}
