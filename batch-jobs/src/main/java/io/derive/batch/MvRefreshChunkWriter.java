package io.derive.batch;

import io.derive.client.DeriveConnection;
import io.derive.client.DeriveConnectionFactory;
import io.derive.engine.api.DeriveException;
import io.derive.engine.api.Row;
import jakarta.annotation.Resource;
import jakarta.batch.api.BatchProperty;
import jakarta.batch.api.chunk.AbstractItemWriter;
import jakarta.batch.runtime.context.JobContext;
import jakarta.batch.runtime.context.StepContext;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import jakarta.inject.Named;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The writer of {@code mv-refresh}'s chunk step: writes the chunk's rows of the body into the
 * run's shadow ({@code refresh materialized view v continue run … limit n}) inside the chunk's
 * transaction, which also commits the checkpoint in the job repository (a two-phase commit).
 * Logs progress at each tenth of the expected rows.
 *
 * <p>Test-only fault: when the system property {@value #FAULT_PROPERTY} is {@code view:k}, the
 * first chunk after the k-th committed one of a refresh of {@code view} fails before it writes,
 * once in the server's life; without the property nothing is checked.
 */
@Named("mvRefreshChunkWriter")
@Dependent
public class MvRefreshChunkWriter extends AbstractItemWriter {

    static final String FAULT_PROPERTY = "derive.test.refreshFault";
    private static final AtomicBoolean FAULTED = new AtomicBoolean();
    private static final Logger LOG = System.getLogger(MvRefreshChunkWriter.class.getName());

    @Inject
    @BatchProperty
    String view;

    @Inject
    JobContext jobContext;

    @Inject
    StepContext stepContext;

    @Resource(lookup = "eis/derive")
    DeriveConnectionFactory connectionFactory;

    @Override
    public void writeItems(List<Object> slots) {
        RefreshProgress progress = (RefreshProgress) stepContext.getTransientUserData();
        injectTestFault(view, progress, jobContext);
        Row written;
        try (DeriveConnection connection = connectionFactory.getConnection()) {
            written = connection.run("refresh materialized view " + view + " continue run "
                    + RefreshRunName.literal(jobContext) + " limit " + slots.size()).rows().get(0);
        } catch (DeriveException e) {
            progress.chunkRolledBack();
            if (e.code().startsWith("40")) {
                throw new RetryableChunkException(e.getMessage(), e);
            }
            LOG.log(Level.WARNING, "refresh of materialized view {0} failed: {1}", view, e.getMessage());
            jobContext.setExitStatus(e.getMessage());
            throw e;
        }
        long before = progress.expected() <= 0 ? 0 : progress.position() * 10 / progress.expected();
        progress.chunkWritten(number(written, "written"), number(written, "position"), number(written, "expected"),
                (String) written.get("last_key"), number(written, "done") == 1);
        stepContext.setPersistentUserData(progress.copy());
        if (progress.expected() > 0 && progress.position() * 10 / progress.expected() > before) {
            LOG.log(Level.INFO, "refresh of materialized view {0}: {1} of {2} rows written in {3} chunks", view,
                    progress.position(), progress.expected(), progress.chunks());
        }
    }

    private static long number(Row row, String column) {
        return ((Number) row.get(column)).longValue();
    }

    private static void injectTestFault(String view, RefreshProgress progress, JobContext job) {
        String fault = System.getProperty(FAULT_PROPERTY);
        if (fault != null && fault.equalsIgnoreCase(view + ":" + progress.chunks()) && FAULTED.compareAndSet(false, true)) {
            String message = "test fault (" + FAULT_PROPERTY + "): chunk " + (progress.chunks() + 1) + " failed";
            job.setExitStatus(message);
            throw new IllegalStateException(message);
        }
    }
}
