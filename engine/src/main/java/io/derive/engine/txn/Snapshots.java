package io.derive.engine.txn;

import io.derive.engine.schema.Catalog;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
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
 * versions a statement may still read: those newer than {@link #oldestRead()}, and the newest of
 * the older ones.
 *
 * <p>Opening a snapshot and computing the oldest read share one monitor, so that a snapshot is
 * either counted by {@link #oldestRead()} or opened at a sequence no older than what it
 * returned. The monitor is held for a few map operations, never across a host's work: a
 * reader never waits for a writer's transaction.
 */
public final class Snapshots {
    /** The committed state as of {@code sequence}: the catalog, and each host's tables as of that commit. */
    public record Snapshot(long sequence, Catalog catalog) {
    }

    private static final Object NO_CHANGE = new Object();

    private volatile Snapshot latest = new Snapshot(0, Catalog.empty());
    private final AtomicLong taken = new AtomicLong();
    /** Completed commits an earlier one still publishing keeps from being visible: number → catalog or {@link #NO_CHANGE}. */
    private final Map<Long, Object> completed = new HashMap<>();
    /** Guards {@link #completed} and {@link #awaitingVisibility}; apart from the readers' monitor, so commits and statements do not queue for one. */
    private final Object visibility = new Object();
    private final List<VisibilityWaiter> awaitingVisibility = new ArrayList<>();
    /** Sequence number → how many statements read it. */
    private final TreeMap<Long, Integer> reading = new TreeMap<>();

    /** The latest committed snapshot, not registered: for work that does not need a stable one. */
    public Snapshot latest() {
        return latest;
    }

    /** Registers a reader of the latest snapshot and returns it; {@link #close} it when done. */
    public synchronized Snapshot open() {
        Snapshot s = latest;
        reading.merge(s.sequence(), 1, Integer::sum);
        return s;
    }

    /** Ends one reader of {@code snapshot}. */
    public synchronized void close(Snapshot snapshot) {
        reading.computeIfPresent(snapshot.sequence(), (k, n) -> n == 1 ? null : n - 1);
    }

    /**
     * The oldest sequence number any open snapshot reads, or the latest when none is open: a host
     * may discard every version that is older than its newest version at or before this number.
     */
    public synchronized long oldestRead() {
        return reading.isEmpty() ? latest.sequence() : Math.min(reading.firstKey(), latest.sequence());
    }

    /**
     * Takes the number of a commit that starts to publish now. The caller holds the publish locks
     * of the tables it commits ({@link CommittedState#publishLocks}), so that each table's commits
     * take their numbers in the order they publish; commits of disjoint tables publish side by
     * side. Every number taken must be {@linkplain #complete completed}, or no later commit ever
     * becomes visible.
     */
    long take() {
        return taken.incrementAndGet();
    }

    /**
     * Commit {@code sequence} has published what it publishes: once every earlier number has
     * completed too, it becomes the latest snapshot, under {@code catalog} when it changed the
     * schema ({@code null}: the catalog stays as it was), and the commits waiting to be visible
     * that now are wake.
     */
    void complete(long sequence, Catalog catalog) {
        synchronized (visibility) {
            completed.put(sequence, catalog == null ? NO_CHANGE : catalog);
            Snapshot next = latest;
            Object c;
            while ((c = completed.remove(next.sequence() + 1)) != null) {
                next = new Snapshot(next.sequence() + 1, c == NO_CHANGE ? next.catalog() : (Catalog) c);
            }
            if (next == latest) {
                return;
            }
            latest = next;
            for (Iterator<VisibilityWaiter> i = awaitingVisibility.iterator(); i.hasNext(); ) {
                VisibilityWaiter w = i.next();
                if (w.sequence() <= next.sequence()) {
                    i.remove();
                    LockSupport.unpark(w.thread());
                }
            }
        }
    }

    /**
     * Waits until commit {@code sequence} is visible, which it is once the commits numbered before
     * it have completed: a commit returns only then, so that whatever follows it reads it, and a
     * statement that takes a lock a commit newer than its snapshot released waits for it before it
     * runs again on a new snapshot.
     */
    void awaitVisible(long sequence) {
        if (latest.sequence() >= sequence) {
            return;
        }
        synchronized (visibility) {
            if (latest.sequence() >= sequence) {
                return;
            }
            awaitingVisibility.add(new VisibilityWaiter(sequence, Thread.currentThread()));
        }
        boolean interrupted = false;
        while (latest.sequence() < sequence) {
            LockSupport.park(this);
            interrupted |= Thread.interrupted();
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private record VisibilityWaiter(long sequence, Thread thread) {
    }
}
