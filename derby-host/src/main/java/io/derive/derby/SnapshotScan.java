package io.derive.derby;

import io.derive.engine.spi.LookaheadCursor;
import io.derive.engine.spi.PersistentTree;
import io.derive.engine.spi.RowCursor;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.function.Predicate;

/**
 * One key space of a Derby scan as a transaction sees it: Derby's rows, read without locks, with
 * every key a snapshot must not see there replaced by its {@link BeforeImages before-image}, and
 * under them the transaction's own pending writes.
 *
 * <p>The store cursor hands out {@link Keyed} rows in key order. Between two of them, and after
 * the last, the before-images of keys Derby no longer held when it was read are handed out too:
 * those are rows a newer or uncommitted write deleted. A before-image is looked up only after
 * Derby was read around its key, which is what {@link BeforeImages} requires. Read without
 * locks, Derby may hand out a row twice while a writer changes it; a key not above the last one
 * is skipped.
 */
final class SnapshotScan extends LookaheadCursor {

    /** A row with the key it is stored under and the physical key of its table row (the same for a table scan). */
    record Keyed(byte[] key, Object[] row, byte[] baseKey) {
    }

    /** Turns what the key space holds into rows. */
    interface Resolver {
        /** The row for a store row whose key Derby holds as the snapshot does; {@code null} to skip it. */
        Keyed settled(Keyed stored);

        /** The row for a key whose snapshot value is {@code before} (not null); {@code null} to skip it. */
        Keyed before(byte[] key, Object before);
    }

    /** The resolver of a table's own rows: they are their own before-images. */
    static final Resolver TABLE_ROWS = new Resolver() {
        @Override
        public Keyed settled(Keyed stored) {
            return stored;
        }

        @Override
        public Keyed before(byte[] key, Object before) {
            return new Keyed(key, (Object[]) before, key);
        }
    };

    /** The source of {@link Keyed} rows in key order. */
    interface Store extends AutoCloseable {
        /** The next row, or {@code null} at the end. */
        Keyed next();

        @Override
        void close();
    }

    private final Store store;
    private final BeforeImages images;
    private final long snapshot;
    private final KeyCodec.Bounds bounds;
    private final Resolver resolver;
    private final Predicate<byte[]> pendingBase;
    private final Iterator<PersistentTree.Entry<byte[], Object[]>> pending;
    private final ArrayDeque<Keyed> ready = new ArrayDeque<>();
    private byte[] last;
    private boolean storeDone;
    private Keyed nextStored;
    private PersistentTree.Entry<byte[], Object[]> nextPending;

    /**
     * @param pendingBase true for a physical key the transaction has written: its pending row
     *                    decides, so the key space's rows of it are left out
     * @param pending     the transaction's rows in the bounds, by key, a {@link PendingRows#DELETED}
     *                    value hiding the key
     */
    SnapshotScan(Store store, BeforeImages images, long snapshot, KeyCodec.Bounds bounds, Resolver resolver,
                 Predicate<byte[]> pendingBase, Iterator<PersistentTree.Entry<byte[], Object[]>> pending) {
        this.store = store;
        this.images = images;
        this.snapshot = snapshot;
        this.bounds = bounds;
        this.resolver = resolver;
        this.pendingBase = pendingBase;
        this.pending = pending;
    }

    /** The rows of {@code cursor} last first: Derby reads its key spaces forward only. */
    static RowCursor reversed(RowCursor cursor) {
        List<Object[]> rows = new ArrayList<>();
        try (cursor) {
            cursor.forEachRemaining(rows::add);
        }
        Collections.reverse(rows);
        Iterator<Object[]> it = rows.iterator();
        return new LookaheadCursor() {
            @Override
            protected Object[] advance() {
                return it.hasNext() ? it.next() : null;
            }

            @Override
            public void close() {
                // the rows are in memory
            }
        };
    }

    @Override
    protected Object[] advance() {
        while (true) {
            if (nextStored == null) {
                nextStored = nextSnapshotRow();
            }
            if (nextPending == null && pending.hasNext()) {
                nextPending = pending.next();
            }
            if (nextStored == null && nextPending == null) {
                return null;
            }
            int order = nextStored == null ? 1 : nextPending == null ? -1
                    : Arrays.compareUnsigned(nextStored.key(), nextPending.key());
            if (order < 0) {
                Object[] row = nextStored.row();
                nextStored = null;
                return row;
            }
            if (order == 0) {
                nextStored = null;
            }
            Object[] row = nextPending.value();
            nextPending = null;
            if (row != PendingRows.DELETED) {
                return row;
            }
        }
    }

    /** The next row of the key space as of the snapshot, the transaction's own rows left out. */
    private Keyed nextSnapshotRow() {
        while (ready.isEmpty()) {
            if (storeDone) {
                return null;
            }
            Keyed stored = store.next();
            if (stored == null) {
                storeDone = true;
                hidden(bounds.to(), bounds.toInclusive());
                break;
            }
            if (last != null && Arrays.compareUnsigned(stored.key(), last) <= 0) {
                // Without locks Derby may hand out a row a writer is changing twice, once each side of the change.
                continue;
            }
            hidden(stored.key(), false);
            Object before = images.at(stored.key(), snapshot);
            offer(before == BeforeImages.SETTLED ? resolver.settled(stored)
                    : before == null ? null : resolver.before(stored.key(), before));
            last = stored.key();
        }
        return ready.poll();
    }

    /** Queues the before-images of keys after the last one read and up to {@code to} that Derby did not hand out. */
    private void hidden(byte[] to, boolean toInclusive) {
        byte[] from = last == null ? bounds.from() : last;
        boolean fromInclusive = last == null && bounds.fromInclusive();
        for (byte[] key : images.keys(from, fromInclusive, to, toInclusive)) {
            Object before = images.at(key, snapshot);
            if (before != BeforeImages.SETTLED && before != null) {
                offer(resolver.before(key, before));
            }
        }
    }

    private void offer(Keyed row) {
        if (row != null && !pendingBase.test(row.baseKey())) {
            ready.add(row);
        }
    }

    @Override
    public void close() {
        store.close();
    }
}
