package io.derive.engine.txn;

import io.derive.engine.spi.CacheLinePadding;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;

/**
 * One table's publish lock ({@link PublishLocks}): held by one commit at a time, not reentrant.
 *
 * <p>Every commit of the table takes and releases it, so its state is written by whichever core
 * commits, and it sits on cache lines of its own ({@link State}): the small objects of a
 * {@code ReentrantLock}, placed by the collector beside another table's, made commits of
 * disjoint tables miss in each other's caches. A commit that finds it busy yields and tries
 * again before it parks: its holder keeps it for a few microseconds, and parked, a commit waits
 * to be woken and then to be scheduled, so with more writers than cores the lock would pass
 * from commit to commit only as fast as the scheduler switches threads.
 */
final class PublishLock {
    private static final int TRIES_BEFORE_PARKING = 64;
    private static final int FREE = 0;
    private static final int HELD = 1;
    /** Held, and a commit may be parked waiting: the holder wakes one as it releases. */
    private static final int HELD_WAITED = 2;
    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(StateField.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final long order;
    private final State state = new State();
    /** Commits parked for the lock, first come first woken. */
    private final Queue<Thread> parked = new ConcurrentLinkedQueue<>();

    /** @param order the place of this lock in the one order every commit takes several in */
    PublishLock(long order) {
        this.order = order;
    }

    long order() {
        return order;
    }

    /**
     * Takes the lock, waiting as long as it takes (its holders wait for nothing while they hold
     * it); an interrupt meanwhile is kept for the caller to see afterwards.
     */
    void lock() {
        for (int i = 0; i < TRIES_BEFORE_PARKING; i++) {
            if (state.state == FREE && STATE.compareAndSet(state, FREE, HELD)) {
                return;
            }
            Thread.yield();
        }
        Thread me = Thread.currentThread();
        parked.add(me);
        boolean interrupted = false;
        // Listed before marking the lock waited for, so that a holder that sees the mark finds this thread to wake;
        // taken while so marked, the lock stays marked, which at worst wakes a thread for nothing.
        while ((int) STATE.getAndSet(state, HELD_WAITED) != FREE) {
            LockSupport.park(this);
            // a commit may hold the publish locks of its other tables: it takes this one whatever happens
            interrupted |= Thread.interrupted();
        }
        parked.remove(me);
        if (interrupted) {
            me.interrupt();
        }
    }

    /** Releases the lock; call from the thread that took it. */
    void unlock() {
        if ((int) STATE.getAndSet(state, FREE) == HELD_WAITED) {
            Thread next = parked.peek();
            if (next != null) {
                LockSupport.unpark(next);
            }
        }
    }

    /** What {@link State} pads. */
    private abstract static class StateField extends CacheLinePadding {
        volatile int state;
    }

    /** Whether the lock is held, on cache lines of its own. */
    @SuppressWarnings("unused")
    private static final class State extends StateField {
        private long q1, q2, q3, q4, q5, q6, q7, q8;
    }
}
