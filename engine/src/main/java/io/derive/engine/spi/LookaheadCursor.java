package io.derive.engine.spi;

import java.util.NoSuchElementException;

/**
 * A {@link RowCursor} built from one method that computes the next row: subclasses implement
 * {@link #advance()} and {@link #close()}; this class keeps the one-row lookahead that
 * {@link #hasNext()} needs.
 */
public abstract class LookaheadCursor implements RowCursor {
    private Object[] next;
    private boolean exhausted;

    /** The next row, or {@code null} when there are no more; not called again after that. */
    protected abstract Object[] advance();

    @Override
    public final boolean hasNext() {
        if (next == null && !exhausted) {
            next = advance();
            exhausted = next == null;
        }
        return next != null;
    }

    @Override
    public final Object[] next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        Object[] row = next;
        next = null;
        return row;
    }
}
