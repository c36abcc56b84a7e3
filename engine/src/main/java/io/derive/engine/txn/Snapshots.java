package io.derive.engine.txn;

import io.derive.engine.schema.Catalog;

import java.util.TreeMap;

/**
 * A database's commit sequence and the snapshots its statements read.
 *
 * <p>Every commit gets the next sequence number; its tables' changes are published under that
 * number and become visible together when {@link #publish} makes it the latest. A statement
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

    private volatile Snapshot latest = new Snapshot(0, Catalog.empty());
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

    /** The number the next commit publishes under; the caller holds {@link CommittedState#publishing()}, so commits come one at a time. */
    long nextSequence() {
        return latest.sequence() + 1;
    }

    /** Makes {@code next} the latest snapshot: statements opened from now on read it. */
    synchronized void publish(Snapshot next) {
        latest = next;
    }
}
