package io.derive.derby;

import io.derive.engine.spi.PersistentTree;

import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.function.ToIntFunction;

/**
 * A transaction's writes to one Derby table, kept engine-side until its flush: by encoded key,
 * the row it leaves (or {@link #DELETED}) and the committed row it replaces (or {@link #ABSENT}),
 * and, for each index a scan has asked for, the index entries of the rows it leaves.
 *
 * <p>A value: every write returns a new one sharing all else, so a savepoint is a reference to
 * it and a cursor keeps the version it started on. The entries of an index are built from the
 * rows when first asked for and kept up to date from then on.
 */
final class PendingRows {
    /** The row a key leaves when the transaction deleted it. */
    static final Object[] DELETED = new Object[0];
    /** The committed row a key replaces when there was none. */
    static final Object[] ABSENT = new Object[0];

    static final PendingRows EMPTY = new PendingRows(PersistentTree.empty(Arrays::compareUnsigned),
            PersistentTree.empty(Arrays::compareUnsigned), new HashMap<>());

    private final PersistentTree<byte[], Object[]> after;
    private final PersistentTree<byte[], Object[]> before;
    /** Built index entries: entry → row. Grows when an index is first asked for (never on {@link #EMPTY}); otherwise fixed. */
    private final Map<DerbyIndex, PersistentTree<byte[], Object[]>> entries;

    /** @param entries owned by the new value from now on */
    private PendingRows(PersistentTree<byte[], Object[]> after, PersistentTree<byte[], Object[]> before,
                        Map<DerbyIndex, PersistentTree<byte[], Object[]>> entries) {
        this.after = after;
        this.before = before;
        this.entries = entries;
    }

    boolean isEmpty() {
        return after.isEmpty();
    }

    /** The row the transaction left at {@code key}: {@code null} when it did not write it, else a row or {@link #DELETED}. */
    Object[] after(byte[] key) {
        return after.get(key);
    }

    /** The committed row the transaction's first write at {@code key} replaced: {@code null} when it did not write it, else a row or {@link #ABSENT}. */
    Object[] before(byte[] key) {
        return before.get(key);
    }

    /**
     * These writes and one more: {@code row} (or {@code null} for a delete) at {@code key}, whose
     * committed row is {@code committed} ({@code null}: none), read by the caller unless the key
     * was written before.
     */
    PendingRows write(byte[] key, Object[] committed, Object[] row) {
        Object[] previous = after.get(key);
        PersistentTree<byte[], Object[]> befores = previous != null ? before
                : before.put(key, committed == null ? ABSENT : committed);
        Map<DerbyIndex, PersistentTree<byte[], Object[]>> next = new HashMap<>(entries.size());
        entries.forEach((index, tree) -> {
            byte[] old = previous == null || previous == DELETED ? null : index.entryOf(previous, key);
            byte[] now = row == null ? null : index.entryOf(row, key);
            PersistentTree<byte[], Object[]> updated = old == null ? tree : tree.remove(old);
            next.put(index, now == null ? updated : updated.put(now, row));
        });
        return new PendingRows(after.put(key, row == null ? DELETED : row), befores, next);
    }

    /** The written rows in {@code bounds}, by key; deleted keys carry {@link #DELETED}. */
    Iterator<PersistentTree.Entry<byte[], Object[]>> rows(KeyCodec.Bounds bounds) {
        return after.range(probe(bounds), false);
    }

    /** Every written key in key order, with the row it leaves. */
    Iterator<PersistentTree.Entry<byte[], Object[]>> rows() {
        return after.range(k -> 0, false);
    }

    /** The entries of {@code index} of the written rows in {@code bounds}, by entry. */
    Iterator<PersistentTree.Entry<byte[], Object[]>> entries(DerbyIndex index, KeyCodec.Bounds bounds) {
        if (after.isEmpty()) {
            // EMPTY is shared by every table: nothing is kept in it
            return Collections.emptyIterator();
        }
        return entries.computeIfAbsent(index, this::build).range(probe(bounds), false);
    }

    private PersistentTree<byte[], Object[]> build(DerbyIndex index) {
        PersistentTree<byte[], Object[]> tree = PersistentTree.empty(Arrays::compareUnsigned);
        for (Iterator<PersistentTree.Entry<byte[], Object[]>> it = rows(); it.hasNext(); ) {
            var e = it.next();
            byte[] entry = e.value() == DELETED ? null : index.entryOf(e.value(), e.key());
            if (entry != null) {
                tree = tree.put(entry, e.value());
            }
        }
        return tree;
    }

    /** Places a key against {@code bounds}: negative before them, 0 inside, positive after. */
    private static ToIntFunction<byte[]> probe(KeyCodec.Bounds bounds) {
        return key -> {
            if (bounds.from() != null) {
                int c = Arrays.compareUnsigned(key, bounds.from());
                if (c < 0 || c == 0 && !bounds.fromInclusive()) {
                    return -1;
                }
            }
            if (bounds.to() != null) {
                int c = Arrays.compareUnsigned(key, bounds.to());
                if (c > 0 || c == 0 && !bounds.toInclusive()) {
                    return 1;
                }
            }
            return 0;
        };
    }
}
