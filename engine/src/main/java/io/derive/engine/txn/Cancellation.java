package io.derive.engine.txn;

import io.derive.engine.api.DeriveException;

import java.util.concurrent.atomic.AtomicReference;

/**
 * Whether a transaction was canceled: set by {@link #cancel()} from any thread, read by the
 * transaction's own thread at each row boundary through {@link #check()}, which costs two
 * volatile reads (the second, whether the heap is nearly full: {@link HeapPressure}).
 *
 * <p>A commit {@linkplain #seal() seals} the token when it passes the point after which it
 * cannot stop: a cancel that comes later does nothing, so a transaction that reports itself
 * canceled never publishes.
 */
public final class Cancellation {
    private enum State { RUNNING, CANCELED, SEALED }

    private final AtomicReference<State> state = new AtomicReference<>(State.RUNNING);
    private final String transaction;
    private final HeapPressure heap;
    /** Whether the heap stopped the running statement, which has not yet let go of its rows: the owner thread's. */
    private boolean stoppedByHeap;

    /**
     * @param transaction how the error names the canceled transaction's session and database
     * @param heap        what stops the transaction's statements while the heap is nearly full
     */
    Cancellation(String transaction, HeapPressure heap) {
        this.transaction = transaction;
        this.heap = heap;
    }

    /** Marks the transaction canceled, unless its commit is already past stopping. Any thread may call it. */
    public void cancel() {
        state.compareAndSet(State.RUNNING, State.CANCELED);
    }

    /**
     * @throws DeriveException {@link DeriveException#CANCELED} when the transaction was canceled;
     *         {@link DeriveException#OUT_OF_MEMORY} while the heap is over its limit ({@link HeapPressure})
     */
    public void check() {
        if (state.get() == State.CANCELED) {
            throw canceled();
        }
        try {
            heap.check(transaction);
        } catch (DeriveException e) {
            stoppedByHeap = true;
            throw e;
        }
    }

    /**
     * The transaction's statement ended, or the transaction did: what a statement the heap
     * stopped held is garbage now, so collections measure again ({@link HeapPressure#released}).
     */
    void statementEnded() {
        if (stoppedByHeap) {
            stoppedByHeap = false;
            heap.released();
        }
    }

    /**
     * From now on a cancel comes too late: the commit goes through or fails on its own.
     *
     * @throws DeriveException ({@link DeriveException#CANCELED}) when the transaction was canceled before
     */
    void seal() {
        if (!state.compareAndSet(State.RUNNING, State.SEALED) && state.get() == State.CANCELED) {
            throw canceled();
        }
    }

    private DeriveException canceled() {
        return new DeriveException(DeriveException.CANCELED, "the transaction of " + transaction + " was canceled");
    }
}
