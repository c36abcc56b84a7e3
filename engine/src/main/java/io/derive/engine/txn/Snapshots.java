package io.derive.engine.txn;

import io.derive.engine.schema.Catalog;
import io.derive.engine.spi.CacheLinePadding;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.Queue;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.LockSupport;

/**
 * A database's commit sequence and the snapshots its statements read.
 *
 * <p>Every commit gets the next sequence number; its tables' changes are published under that
 * number and become visible together when it and every earlier commit have
 * {@linkplain #complete completed}: commits of disjoint tables publish side by side, and the
 * latest snapshot is the end of the unbroken run of completed numbers. A statement
 * {@linkplain #open opens} the latest snapshot when it starts and reads, on every table and every
 * host, the state as of that number, so it sees a commit entirely or not at all. Hosts keep the
 * versions a statement may still read: for each {@linkplain #readSequences() sequence read} the
 * newest version at or before it, and every version newer than the latest.
 *
 * <p>A reader registers its snapshot in a slot of its own, without a lock: with more threads
 * than cores, a reader descheduled inside a lock every statement takes would hold all the
 * others up. A snapshot is either counted by {@link #readSequences()} or opened at a sequence no
 * older than the latest it returned: it reads the latest sequence before the slots,
 * and a reader, once its slot holds the sequence it read, reads the latest again and starts
 * over when it moved. Readers beyond the slots register under a monitor. A commit completes,
 * and the latest snapshot moves over it, without a lock either. Nothing here waits for a host's
 * work: a reader never waits for a writer's transaction.
 */
public final class Snapshots {
    /** The committed state as of {@code sequence}: the catalog, and each host's tables as of that commit. */
    public record Snapshot(long sequence, Catalog catalog) {
    }

    private static final int SPINS_BEFORE_PARKING = 64;
    /** How far ahead of the latest a commit's number may be (see {@link #take}); a power of two. */
    static final int AHEAD = 1 << 12;
    private static final VarHandle LATEST;
    private static final VarHandle TAKEN;

    /** The commit counter, the latest snapshot and the oldest-read bound (see {@link Head}). */
    private final Head head = new Head();
    /**
     * Completed commits an earlier one still publishing keeps from being visible, each at its
     * number modulo the length: no number is taken that far ahead of the latest ({@link #take}).
     */
    private final AtomicReferenceArray<Completion> completed = new AtomicReferenceArray<>(AHEAD);
    private final Queue<VisibilityWaiter> awaitingVisibility = new ConcurrentLinkedQueue<>();

    static {
        try {
            LATEST = MethodHandles.lookup().findVarHandle(HeadFields.class, "latest", Snapshot.class);
            TAKEN = MethodHandles.lookup().findVarHandle(HeadFields.class, "taken", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** A commit that completed: its number, and the catalog it published ({@code null}: unchanged). */
    private record Completion(long sequence, Catalog catalog) {
    }

    /** Reader slots, each on a cache line of its own: the sequence its reader reads, or {@link #FREE}. */
    static final int SLOTS = 128;
    private static final int STRIDE = 8;
    private static final long FREE = Long.MAX_VALUE;
    /** Slot {@code i} is at {@link #at at(i)}; the first line holds no slot ({@link #at}). */
    private final AtomicLongArray slots = new AtomicLongArray((SLOTS + 1) * STRIDE);
    /** Readers that found no free slot: sequence number → how many read it; guarded by this. */
    private final TreeMap<Long, Integer> overflow = new TreeMap<>();
    private final AtomicInteger overflowing = new AtomicInteger();
    private static final int BOUND_REFRESH = 16;

    /** What {@link Head} pads. */
    private abstract static class HeadFields extends CacheLinePadding {
        volatile long taken;
        /**
         * The oldest sequence of the newest answer {@link #readSequences()} gave: no reader open or opening reads an
         * older sequence, because a reader opens at the latest one.
         */
        volatile long oldestReadBound;
        volatile Snapshot latest = new Snapshot(0, Catalog.empty());
    }

    /**
     * The fields every commit writes, on cache lines of their own: the commit counter and the
     * latest snapshot, which a commit moves over its number a moment after taking it, usually
     * while its core still holds the line; and the oldest-read bound, which it reads then. The
     * rest of this class is read at every commit and statement, and so is written by none.
     */
    @SuppressWarnings("unused")
    private static final class Head extends HeadFields {
        private long q1, q2, q3, q4, q5, q6, q7, q8;
    }

    /** An open snapshot and where its reader is registered. */
    public record Reading(Snapshot snapshot, int slot) {
        public long sequence() {
            return snapshot.sequence();
        }
    }

    /** Runs in {@link #open} between reading the latest snapshot and registering it; tests make a commit there. */
    private final Runnable afterReadingLatest;

    public Snapshots() {
        this(() -> { });
    }

    Snapshots(Runnable afterReadingLatest) {
        this.afterReadingLatest = afterReadingLatest;
        for (int i = 0; i < SLOTS; i++) {
            slots.set(at(i), FREE);
        }
    }

    /** The latest committed snapshot, not registered: for work that does not need a stable one. */
    public Snapshot latest() {
        return head.latest;
    }

    /**
     * Registers a reader of the latest snapshot and returns it; {@link #close} it when done. A
     * thread tries its own slot first (by its id), so that its readers reuse one cache line.
     */
    public Reading open() {
        int home = (int) (Thread.currentThread().getId() * 0x9E3779B97F4A7C15L
                >>> (Long.SIZE - Integer.numberOfTrailingZeros(SLOTS)));
        for (int i = 0; i < SLOTS; i++) {
            int slot = (home + i) & (SLOTS - 1);
            Snapshot s = head.latest;
            afterReadingLatest.run();
            if (slots.get(at(slot)) == FREE && slots.compareAndSet(at(slot), FREE, s.sequence())) {
                Snapshot now;
                while ((now = head.latest) != s) {
                    s = now;
                    slots.set(at(slot), s.sequence());
                }
                return new Reading(s, slot);
            }
        }
        synchronized (this) {
            overflowing.incrementAndGet();
            Snapshot s = head.latest;
            overflow.merge(s.sequence(), 1, Integer::sum);
            return new Reading(s, -1);
        }
    }

    /** Ends one reader. */
    public void close(Reading reading) {
        if (reading.slot() >= 0) {
            slots.set(at(reading.slot()), FREE);
            return;
        }
        synchronized (this) {
            overflow.computeIfPresent(reading.sequence(), (k, n) -> n == 1 ? null : n - 1);
            overflowing.decrementAndGet();
        }
    }

    /**
     * The index of slot {@code slot}: one line in, because every access reads the array's length
     * (its bounds check) from the first line, and a slot there would make each write to it
     * cost every other reader a cache miss.
     */
    private static int at(int slot) {
        return (slot + 1) * STRIDE;
    }

    /**
     * The oldest sequence number any open snapshot reads, or the latest when none is open: a host
     * may discard every version that is older than its newest version at or before this number.
     */
    public long oldestRead() {
        return readSequences()[0];
    }

    /**
     * The sequence numbers open snapshots read, ascending and distinct, then the latest (read
     * before the readers, so that a reader registering meanwhile reads it or a newer one: it
     * looks at the latest again after taking its slot). What {@link HostSession#readSequences()}
     * reports.
     */
    public long[] readSequences() {
        long newest = head.latest.sequence();
        // sized for the few readers a scan usually finds behind the latest: every host's pruning asks
        long[] reads = new long[4];
        int n = 0;
        for (int i = 0; i < SLOTS; i++) {
            long read = slots.get(at(i));
            if (read < newest) {
                reads = withRoom(reads, n);
                reads[n++] = read;
            }
        }
        if (overflowing.get() > 0) {
            synchronized (this) {
                for (long read : overflow.keySet()) {
                    if (read < newest) {
                        reads = withRoom(reads, n);
                        reads[n++] = read;
                    }
                }
            }
        }
        Arrays.sort(reads, 0, n);
        int distinct = 0;
        for (int i = 0; i < n; i++) {
            if (distinct == 0 || reads[distinct - 1] != reads[i]) {
                reads[distinct++] = reads[i];
            }
        }
        reads = withRoom(reads, distinct);
        reads[distinct++] = newest;
        if (reads[0] > head.oldestReadBound) {
            head.oldestReadBound = reads[0];
        }
        return distinct == reads.length ? reads : Arrays.copyOf(reads, distinct);
    }

    /** {@code reads}, or a copy twice as long when it has no room after its first {@code used}. */
    private static long[] withRoom(long[] reads, int used) {
        return used < reads.length ? reads : Arrays.copyOf(reads, reads.length * 2);
    }

    /**
     * A lower bound of {@link #oldestRead()}, cheap to ask at every commit: the newest answer it
     * gave, computed afresh about every {@value #BOUND_REFRESH} calls (chosen at random, so that
     * callers share no counter). What the oldest read allows to be forgotten, the bound allows a
     * little later.
     */
    public long oldestReadBound() {
        if (ThreadLocalRandom.current().nextInt(BOUND_REFRESH) == 0) {
            return oldestRead();
        }
        return head.oldestReadBound;
    }

    /**
     * Takes the number of a commit that starts to publish now. The caller holds the publish locks
     * of the tables it commits ({@link CommittedState#publishLocks}), so that each table's commits
     * take their numbers in the order they publish; commits of disjoint tables publish side by
     * side. Every number taken must be {@linkplain #complete completed}, or no later commit ever
     * becomes visible. A number {@value #AHEAD} or more ahead of the latest waits for the latest
     * to come nearer (the commits before it hold all their publish locks already, so they do not
     * wait for this one): its completion would take the place of one not yet visible.
     *
     * @param knownVisible a sequence the caller has seen visible, 0 if none: the latest is at
     *                     least that, so a number less than {@value #AHEAD} ahead of it needs no
     *                     look at the latest, which every commit moves (a cache miss with
     *                     writers on other cores)
     */
    long take(long knownVisible) {
        long sequence = (long) TAKEN.getAndAdd(head, 1L) + 1;
        if (sequence - knownVisible >= AHEAD) {
            while (sequence - head.latest.sequence() >= AHEAD) {
                Thread.yield();
            }
        }
        return sequence;
    }

    /**
     * Commit {@code sequence} has published what it publishes: once every earlier number has
     * completed too, it becomes the latest snapshot, under {@code catalog} when it changed the
     * schema ({@code null}: the catalog stays as it was), and the commits waiting to be visible
     * that now are wake.
     *
     * @return a sequence visible now (the latest as this call last saw it): when it is at least
     *         {@code sequence}, the commit need not {@linkplain #awaitVisible wait} to be visible
     */
    long complete(long sequence, Catalog catalog) {
        // The next to be visible, as a commit on its own usually is, moves the latest over itself
        // without a look at the completions, whose lines the other cores write.
        Snapshot current = head.latest;
        if (current.sequence() == sequence - 1 && LATEST.compareAndSet(head, current,
                new Snapshot(sequence, catalog == null ? current.catalog() : catalog))) {
            return advance(true);
        }
        completed.set(slot(sequence), new Completion(sequence, catalog));
        return advance(false);
    }

    /**
     * Moves the latest snapshot over every completed commit that follows it, without a lock: of
     * a commit completing and one advancing past the commit before it, at least one sees the
     * other (each writes, then reads what the other writes), so no completion is left behind.
     * Returns the latest sequence it last read.
     *
     * @param advanced whether the caller moved the latest already, so that those it made visible are woken
     */
    private long advance(boolean advanced) {
        Snapshot current;
        while (true) {
            current = head.latest;
            Completion next = completed.get(slot(current.sequence() + 1));
            if (next == null || next.sequence() != current.sequence() + 1) {
                break;
            }
            Snapshot visible = new Snapshot(next.sequence(), next.catalog() == null ? current.catalog() : next.catalog());
            if (LATEST.compareAndSet(head, current, visible)) {
                completed.compareAndSet(slot(next.sequence()), next, null);
                advanced = true;
            }
        }
        if (advanced && !awaitingVisibility.isEmpty()) {
            long now = head.latest.sequence();
            for (VisibilityWaiter w : awaitingVisibility) {
                if (w.sequence() <= now) {
                    LockSupport.unpark(w.thread());
                }
            }
        }
        return current.sequence();
    }

    private static int slot(long sequence) {
        return (int) (sequence & (AHEAD - 1));
    }

    /**
     * Waits until commit {@code sequence} is visible, which it is once the commits numbered before
     * it have completed: a commit returns only then, so that whatever follows it reads it, and a
     * statement that takes a lock a commit newer than its snapshot released waits for it before it
     * runs again on a new snapshot.
     */
    void awaitVisible(long sequence) {
        // The earlier commits are usually a few steps from completing, unless their threads were
        // descheduled: yielding lets those run, where parking would wait to be woken and scheduled.
        for (int i = 0; i < SPINS_BEFORE_PARKING; i++) {
            if (head.latest.sequence() >= sequence) {
                return;
            }
            if (i < SPINS_BEFORE_PARKING / 2) {
                Thread.onSpinWait();
            } else {
                Thread.yield();
            }
        }
        // Listed before looking again, so that a commit that moves the latest after the look wakes it.
        VisibilityWaiter waiter = new VisibilityWaiter(sequence, Thread.currentThread());
        awaitingVisibility.add(waiter);
        boolean interrupted = false;
        while (head.latest.sequence() < sequence) {
            LockSupport.park(this);
            interrupted |= Thread.interrupted();
        }
        awaitingVisibility.remove(waiter);
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private record VisibilityWaiter(long sequence, Thread thread) {
    }
}
