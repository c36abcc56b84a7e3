package io.derive.batch;

import io.derive.client.DeriveConnection;
import io.derive.client.DeriveConnectionFactory;
import io.derive.engine.api.DeriveException;
import io.derive.engine.api.Result;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;

import jakarta.annotation.Resource;
import jakarta.batch.api.AbstractBatchlet;
import jakarta.batch.api.BatchProperty;
import jakarta.batch.runtime.context.JobContext;
import jakarta.inject.Inject;

/**
 * A batchlet that runs one statement about the materialized view its job names ({@code view};
 * for {@code mv-attach}, the table that becomes one),
 * in autocommit (a batchlet gets no container transaction). A name that is not a plain
 * identifier is refused before any SQL is built; when the engine refuses the statement, the
 * job's exit status is the engine's message and the job fails.
 */
abstract class ViewStatementBatchlet extends AbstractBatchlet {

    private static final Logger LOG = System.getLogger(ViewStatementBatchlet.class.getName());

    @Inject
    @BatchProperty
    String view;

    @Inject
    JobContext jobContext;

    @Resource(lookup = "eis/derive")
    DeriveConnectionFactory connectionFactory;

    /**
     * Runs {@code statementPrefix + view + statementSuffix}; {@code what} names the work for the log.
     *
     * @throws IllegalArgumentException for a view name that is not a plain identifier
     * @throws DeriveException          what the engine refused, after setting it as exit status
     */
    Result run(String what, String statementPrefix, String statementSuffix) {
        if (!Identifiers.isIdentifier(view)) {
            // The name goes into SQL text, so anything but a plain identifier is refused outright.
            String message = "invalid table or materialized view name: " + view;
            jobContext.setExitStatus(message);
            throw new IllegalArgumentException(message);
        }
        try (DeriveConnection connection = connectionFactory.getConnection()) {
            return connection.run(statementPrefix + view + statementSuffix);
        } catch (DeriveException e) {
            LOG.log(Level.WARNING, "{0} of materialized view {1} failed: {2}", what, view, e.getMessage());
            jobContext.setExitStatus(e.getMessage());
            throw e;
        }
    }
}
