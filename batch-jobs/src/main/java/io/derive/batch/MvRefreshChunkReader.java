package io.derive.batch;

import jakarta.batch.api.chunk.AbstractItemReader;
import jakarta.batch.runtime.context.StepContext;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import jakarta.inject.Named;

import java.io.Serializable;

/**
 * The reader of {@code mv-refresh}'s chunk step. Its items are row slots, one per row of the
 * body still to write (so the step's read count is the rows it read); the writer asks the engine
 * for as many rows as the chunk has slots. It ends when the engine reported the body written.
 * Its checkpoint is the run's {@link RefreshProgress}: a restart continues after the last
 * committed chunk, which the engine finds again from the greatest key in the run's shadow.
 */
@Named("mvRefreshChunkReader")
@Dependent
public class MvRefreshChunkReader extends AbstractItemReader {

    @Inject
    StepContext stepContext;

    private RefreshProgress progress;

    @Override
    public void open(Serializable checkpoint) {
        progress = RefreshProgress.resumedFrom((RefreshProgress) checkpoint);
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
