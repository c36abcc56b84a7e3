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
import jakarta.inject.Inject;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The writer of a chunked run's step: runs the run's {@code continue} step for as many rows as
 * the chunk has slots, inside the chunk's transaction, which also commits the checkpoint in the
 * job repository (a two-phase commit). A lock timeout or deadlock (SQL state class 40) rolls the
 * chunk back and is retried ({@link RetryableChunkException}); any other refusal fails the job
 * with the engine's message as exit status. Logs progress at each tenth of the expected rows.
 *
 * <p>Test-only fault: when the system property {@value #FAULT_PROPERTY} is {@code name:k}, the
 * first chunk after the k-th committed one of a run over {@code name} (the view refreshed, the
 * table attached) fails before it writes, once in the server's life; without the property
 * nothing is checked.
 */
abstract class RunChunkWriter extends AbstractItemWriter {

    static final String FAULT_PROPERTY = "derive.test.chunkFault";
    private static final AtomicBoolean FAULTED = new AtomicBoolean();
    private static final Logger LOG = System.getLogger(RunChunkWriter.class.getName());

    /** The materialized view refreshed, or the table attached. */
    @Inject
    @BatchProperty
    String view;

    @Inject
    JobContext jobContext;

    @Inject
    StepContext stepContext;

    @Resource(lookup = "eis/derive")
    DeriveConnectionFactory connectionFactory;

    /** The statement that writes the next {@code limit} rows of the run {@code run} (a SQL string literal). */
    abstract String continueStatement(String run, int limit);

    /** What the run does, for the log: {@code refresh of materialized view v}. */
    abstract String what();

    @Override
    public void writeItems(List<Object> slots) {
        RunProgress progress = (RunProgress) stepContext.getTransientUserData();
        injectTestFault(progress);
        Row written;
        try (DeriveConnection connection = connectionFactory.getConnection()) {
            written = connection.run(continueStatement(RunName.literal(jobContext), slots.size())).rows().get(0);
        } catch (DeriveException e) {
            progress.chunkRolledBack();
            if (e.code().startsWith("40")) {
                throw new RetryableChunkException(e.getMessage(), e);
            }
            LOG.log(Level.WARNING, "{0} failed: {1}", what(), e.getMessage());
            jobContext.setExitStatus(e.getMessage());
            throw e;
        }
        long before = progress.expected() <= 0 ? 0 : progress.position() * 10 / progress.expected();
        progress.chunkWritten(number(written, "written"), number(written, "position"), number(written, "expected"),
                (String) written.get("last_key"), number(written, "done") == 1);
        stepContext.setPersistentUserData(progress.copy());
        if (progress.expected() > 0 && progress.position() * 10 / progress.expected() > before) {
            LOG.log(Level.INFO, "{0}: {1} of {2} rows done in {3} chunks", what(), progress.position(),
                    progress.expected(), progress.chunks());
        }
    }

    private static long number(Row row, String column) {
        return ((Number) row.get(column)).longValue();
    }

    private void injectTestFault(RunProgress progress) {
        String fault = System.getProperty(FAULT_PROPERTY);
        if (fault != null && fault.equalsIgnoreCase(view + ":" + progress.chunks()) && FAULTED.compareAndSet(false, true)) {
            String message = "test fault (" + FAULT_PROPERTY + "): chunk " + (progress.chunks() + 1) + " failed";
            jobContext.setExitStatus(message);
            throw new IllegalStateException(message);
        }
    }
}
