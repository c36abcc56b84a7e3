package io.derive.batch.rehydrate;

import java.io.Serializable;
import java.util.List;

/** The refills of one execution of {@code mv-rehydrate}'s step, as its partitions reported them: the step's persistent data. */
public record RefillRecords(List<RefillRecord> refills) implements Serializable {
    public RefillRecords {
        refills = List.copyOf(refills);
    }
}
