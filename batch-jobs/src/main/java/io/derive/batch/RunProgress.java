package io.derive.batch;

import java.io.Serializable;

/**
 * Where a chunked run ({@code mv-refresh}, {@code mv-attach}) stands, as its chunk step
 * checkpoints it: the chunks and rows written, the position in the body's rows the engine reported last and the rows it expects in
 * all (-1 until the first chunk), the last key written. The reader and the writer of one step
 * share one instance ({@code StepContext} transient data); the checkpoint and the step's
 * persistent user data are copies, so what the job repository holds is what a committed chunk
 * left.
 */
final class RunProgress implements Serializable {
    private static final long serialVersionUID = 1L;

    private long chunks;
    private long rowsWritten;
    private long position;
    private long expected = -1;
    private String lastKey;
    private boolean done;
    /** The chunks already written when this execution of the step began: its first chunk is the next. */
    private long chunksAtStart;
    private transient long slotsRead;

    /** A copy for this execution of the step, resuming after what {@code checkpoint} recorded (null: from the start). */
    static RunProgress resumedFrom(RunProgress checkpoint) {
        RunProgress progress = checkpoint == null ? new RunProgress() : checkpoint.copy();
        progress.chunksAtStart = progress.chunks;
        return progress;
    }

    /**
     * The next row slot of the current chunk, or null when the body's rows are all written or
     * the slots read cover the rows still expected (the chunk then ends short, and so the step).
     */
    Long nextSlot() {
        if (done || expected >= 0 && position + slotsRead >= expected) {
            return null;
        }
        return position + slotsRead++;
    }

    /** Records a chunk the engine wrote, as its {@code continue} step answered. */
    void chunkWritten(long written, long position, long expected, String lastKey, boolean done) {
        chunks++;
        rowsWritten += written;
        this.position = position;
        this.expected = expected;
        this.lastKey = lastKey;
        this.done = done;
        slotsRead = 0;
    }

    /** Forgets the slots read since the last checkpoint: the chunk rolled back and is read again. */
    void chunkRolledBack() {
        slotsRead = 0;
    }

    RunProgress copy() {
        RunProgress copy = new RunProgress();
        copy.chunks = chunks;
        copy.rowsWritten = rowsWritten;
        copy.position = position;
        copy.expected = expected;
        copy.lastKey = lastKey;
        copy.done = done;
        copy.chunksAtStart = chunksAtStart;
        return copy;
    }

    long chunks() {
        return chunks;
    }

    long rowsWritten() {
        return rowsWritten;
    }

    long position() {
        return position;
    }

    long expected() {
        return expected;
    }

    String lastKey() {
        return lastKey;
    }

    boolean done() {
        return done;
    }

    long chunksAtStart() {
        return chunksAtStart;
    }
}
