package io.derive.batch;

import jakarta.batch.api.chunk.AbstractItemReader;
import jakarta.batch.runtime.context.StepContext;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import jakarta.inject.Named;

import java.io.Serializable;

/**
 * The reader of a chunked run's step ({@code mv-refresh}, {@code mv-attach}). Its items are row
 * slots, one per row of the body still to write (so the step's read count is the rows it read);
 * the writer asks the engine for as many rows as the chunk has slots. It ends when the engine
 * reported the body written. Its checkpoint is the run's {@link RunProgress}: a restart continues
 * after the last committed chunk, which the engine finds again from the run's lease (the
 * greatest key in a refresh's shadow, the position an attach's lease records).
 */
@Named("runChunkReader")
@Dependent
public class RunChunkReader extends AbstractItemReader {

    @Inject
    StepContext stepContext;

    private RunProgress progress;

    @Override
    public void open(Serializable checkpoint) {
        progress = RunProgress.resumedFrom((RunProgress) checkpoint);
        stepContext.setTransientUserData(progress);
    }

    @Override
    public Object readItem() {
        return progress.nextSlot();
    }

    @Override
    public Serializable checkpointInfo() {
        return progress.copy();
    }
}
