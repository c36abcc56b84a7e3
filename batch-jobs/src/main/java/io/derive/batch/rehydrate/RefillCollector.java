package io.derive.batch.rehydrate;

import java.io.Serializable;

import jakarta.batch.api.partition.PartitionCollector;
import jakarta.batch.runtime.context.StepContext;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import jakarta.inject.Named;

/** Sends a partition's {@link RefillRecord}, which its batchlet left in the partition's step context, to the analyzer. */
@Named("refillCollector")
@Dependent
public class RefillCollector implements PartitionCollector {

    @Inject
    StepContext stepContext;

    @Override
    public Serializable collectPartitionData() {
        return stepContext.getTransientUserData() instanceof RefillRecord record ? record : null;
    }
}
