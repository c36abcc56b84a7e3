package io.derive.engine.mv;

import io.derive.engine.txn.Transaction;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The group states of one group-arm MV ({@link GroupState}), kept by the engine beside the
 * backing rather than in it: a backing holds the published columns only (semantics §7), and
 * every count and bound here can be derived again from the source at any time. So the store is
 * a cache in which a missing group only means "derive it": that is how it starts (after create,
 * refresh, recompile or reopen — no extra pass over the source), how it stays bounded (least
 * recently used groups are forgotten past {@link #CAPACITY}), and how it gives up on a group
 * it cannot keep exactly.
 *
 * <p>Transactions: a writer reads and replaces a group's state only while it holds the group's
 * exclusive lock ({@link GroupChanges#touch}), and a fill only while it holds the whole MV's, so
 * each group's state is its committed source plus the changes of the one transaction that holds
 * it, whose statement was restarted if a commit reached the group after its snapshot. Every {@link #replace} registers, with the
 * writing transaction, one undo that puts the replaced states back; the transaction runs it when
 * the statement's savepoint, a user savepoint taken before it or the whole transaction rolls
 * back, in reverse order of registration — so the store follows exactly the rollbacks the source
 * rows follow.
 *
 * <p>The states are kept in {@value #SEGMENTS} segments by the group's hash, each its own
 * least-recently-used map under its own monitor, so that writers of different groups of one
 * view, whose locks let them run side by side, seldom meet on one monitor; each segment keeps
 * an equal share of {@link #CAPACITY}.
 */
final class GroupStateStore {
    /**
     * Groups kept per MV: about 1/64 of the heap at some 400 bytes a state (a key, a few counters
     * per aggregate, the map's entry), between 2^16 and 2^20 groups. Large groups are few in a
     * view that has many groups, and a forgotten small group is cheap to derive again (a seek on
     * the group's rows where an index serves), so the bound costs little while keeping the
     * store's memory in proportion to the heap; but a view whose groups all fit is written
     * without reading its source at all, and writes that visit more groups than the store keeps,
     * in a cycle, would find none of them.
     */
    static final int CAPACITY = (int) Math.max(1 << 16, Math.min(1 << 20, Runtime.getRuntime().maxMemory() / (64 * 400)));
    /** A power of two. */
    private static final int SEGMENTS = 64;

    private final Segment[] segments = new Segment[SEGMENTS];

    GroupStateStore() {
        for (int i = 0; i < SEGMENTS; i++) {
            segments[i] = new Segment();
        }
    }

    /** Part of the states, least recently used first; guarded by its own monitor. */
    private static final class Segment extends LinkedHashMap<List<Object>, GroupState> {
        Segment() {
            super(16, 0.75f, true);
        }

        @Override
        protected boolean removeEldestEntry(Map.Entry<List<Object>, GroupState> eldest) {
            return size() > CAPACITY / SEGMENTS;
        }
    }

    private Segment segmentOf(List<Object> group) {
        return segments[(group.hashCode() * 0x9E3779B9) >>> (Integer.SIZE - Integer.numberOfTrailingZeros(SEGMENTS))];
    }

    /** The state of the group with this equality key, or null when the store does not know it. */
    GroupState get(List<Object> group) {
        Segment segment = segmentOf(group);
        synchronized (segment) {
            return segment.get(group);
        }
    }

    /**
     * Replaces the states of these groups (a null state forgets the group) and registers the undo
     * with {@code transaction} before changing anything, so no change escapes a rollback.
     */
    void replace(Transaction transaction, Map<List<Object>, GroupState> next) {
        if (next.isEmpty()) {
            return;
        }
        List<Map.Entry<List<Object>, GroupState>> previous = new ArrayList<>(next.size());
        for (List<Object> group : next.keySet()) {
            previous.add(new java.util.AbstractMap.SimpleImmutableEntry<>(group, get(group)));
        }
        transaction.onRollback(() -> restore(previous));
        next.forEach(this::put);
    }

    private void restore(List<Map.Entry<List<Object>, GroupState>> previous) {
        for (int i = previous.size() - 1; i >= 0; i--) {
            put(previous.get(i).getKey(), previous.get(i).getValue());
        }
    }

    private void put(List<Object> group, GroupState state) {
        Segment segment = segmentOf(group);
        synchronized (segment) {
            if (state == null) {
                segment.remove(group);
            } else {
                segment.put(group, state);
            }
        }
    }

    /** How many groups the store knows (for tests). */
    int size() {
        int size = 0;
        for (Segment segment : segments) {
            synchronized (segment) {
                size += segment.size();
            }
        }
        return size;
    }
}
