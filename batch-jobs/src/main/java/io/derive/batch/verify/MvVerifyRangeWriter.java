package io.derive.batch.verify;

import io.derive.batch.RetryableChunkException;
import io.derive.client.DeriveConnection;
import io.derive.client.DeriveConnectionFactory;
import io.derive.engine.api.DeriveException;
import io.derive.engine.api.Row;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;

import jakarta.annotation.Resource;
import jakarta.batch.api.BatchProperty;
import jakarta.batch.api.chunk.AbstractItemWriter;
import jakarta.batch.runtime.context.JobContext;
import jakarta.batch.runtime.context.StepContext;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import jakarta.inject.Named;

/**
 * The writer of {@code mv-verify}'s step: verifies each range it is given ({@code verify
 * materialized view v [repair] where <the range>}) in the chunk's transaction, so a repair
 * commits with the chunk's checkpoint. Each range is read in one snapshot, so writers running
 * meanwhile cause no false drift; a repaired key is re-checked under its lock. After each chunk
 * the job's exit status says what the ranges so far found ({@code no drift}, or the drifted keys
 * by kind with a sample); a lock timeout or deadlock (SQL state class 40) rolls the chunk back
 * and is retried; any other refusal fails the job with the engine's message as exit status.
 */
@Named("mvVerifyRangeWriter")
@Dependent
public class MvVerifyRangeWriter extends AbstractItemWriter {

    private static final Logger LOG = System.getLogger(MvVerifyRangeWriter.class.getName());

    @Inject
    @BatchProperty
    String view;

    @Inject
    @BatchProperty
    String repair;

    @Inject
    JobContext jobContext;

    @Inject
    StepContext stepContext;

    @Resource(lookup = "eis/derive")
    DeriveConnectionFactory connectionFactory;

    @Override
    public void writeItems(List<Object> ranges) {
        DriftTally tally = (DriftTally) stepContext.getTransientUserData();
        boolean repairing = Boolean.parseBoolean(repair);
        long before = tally.expected() <= 0 ? 0 : tally.keys() * 10 / tally.expected();
        try (DeriveConnection connection = connectionFactory.getConnection()) {
            for (Object item : ranges) {
                KeyRange range = (KeyRange) item;
                KeyRange.Predicate predicate = range.predicate(tally.keyColumns());
                String statement = "verify materialized view " + view + (repairing ? " repair" : "")
                        + (predicate == null ? "" : " where " + predicate.sql());
                List<Row> drift = connection.query(statement,
                        predicate == null ? new Object[0] : predicate.parameters().toArray());
                List<String[]> found = new ArrayList<>();
                for (Row d : drift) {
                    found.add(new String[] {(String) d.get("drift"), (String) d.get("key")});
                }
                tally.verified(range, found);
            }
        } catch (DeriveException e) {
            if (e.code().startsWith("40")) {
                throw new RetryableChunkException(e.getMessage(), e);
            }
            LOG.log(Level.WARNING, "verification of materialized view {0} failed: {1}", view, e.getMessage());
            jobContext.setExitStatus(e.getMessage());
            throw e;
        }
        String summary = tally.summary(repairing);
        jobContext.setExitStatus(summary);
        stepContext.setPersistentUserData(tally.copy());
        if (tally.done()) {
            LOG.log(tally.drifted() == 0 ? Level.INFO : Level.WARNING, "verified materialized view {0} in {1} ranges: {2}",
                    view, tally.ranges(), summary);
        } else if (tally.expected() > 0 && tally.keys() * 10 / tally.expected() > before) {
            LOG.log(Level.INFO, "verification of materialized view {0}: {1} of {2} keys in {3} ranges", view,
                    tally.keys(), tally.expected(), tally.ranges());
        }
    }
}
