package io.derive.batch.rehydrate;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

import jakarta.batch.api.partition.AbstractPartitionAnalyzer;
import jakarta.batch.runtime.context.JobContext;
import jakarta.batch.runtime.context.StepContext;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import jakarta.inject.Named;

/**
 * Gathers the partitions' records, on the step's own thread, into the step's persistent data
 * ({@link RefillRecords}, which the admin API shows per view) and the job's exit status
 * ({@code refilled k of n materialized views}).
 */
@Named("refillAnalyzer")
@Dependent
public class RefillAnalyzer extends AbstractPartitionAnalyzer {

    @Inject
    StepContext stepContext;

    @Inject
    JobContext jobContext;

    private final List<RefillRecord> records = new ArrayList<>();

    @Override
    public void analyzeCollectorData(Serializable data) {
        if (data instanceof RefillRecord record) {
            records.add(record);
            stepContext.setPersistentUserData(new RefillRecords(records));
            long refilled = records.stream()
                    .filter(r -> r.outcome().equals("refilled") || r.outcome().equals("already rehydrated")).count();
            jobContext.setExitStatus("refilled " + refilled + " of " + records.size() + " materialized views");
        }
    }
}
