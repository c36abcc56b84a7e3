package io.derive.memory;

import io.derive.engine.spi.IndexShape;
import io.derive.engine.spi.KeyOrder;
import io.derive.engine.spi.PersistentTree;
import io.derive.engine.spi.TableShape;

import java.util.Arrays;
import java.util.Comparator;

/**
 * One secondary index of a {@link MemoryTable}: how a row becomes an index entry and how entries
 * are ordered. An entry is the row's index key followed by its physical key (so entries are
 * distinct even when index keys repeat); the entry trees map an entry to the row's physical key.
 * Instances are compared by identity: dropping an index and creating another of the same name
 * makes a new one, so a connection never applies a stale pending layer to it.
 */
final class MemoryIndex {
    private final IndexShape shape;
    private final TableShape table;
    private final KeyOrder indexOrder;
    private final Comparator<Object[]> entryOrder;

    MemoryIndex(IndexShape shape, TableShape table) {
        this.shape = shape;
        this.table = table;
        this.indexOrder = shape.keyOrder();
        KeyOrder keyOrder = table.keyOrder();
        int width = shape.columns().size();
        int keyWidth = keyOrder.width();
        this.entryOrder = (a, b) -> {
            // the index part first, under the index's collations and directions
            int c = indexOrder.compare(Arrays.copyOf(a, width), Arrays.copyOf(b, width));
            if (c != 0) {
                return c;
            }
            Object[] ka = new Object[keyWidth];
            Object[] kb = new Object[keyWidth];
            System.arraycopy(a, width, ka, 0, keyWidth);
            System.arraycopy(b, width, kb, 0, keyWidth);
            return keyOrder.compare(ka, kb);
        };
    }

    IndexShape shape() {
        return shape;
    }

    /** The order of index keys (the indexed columns only). */
    KeyOrder keyOrder() {
        return indexOrder;
    }

    String name() {
        return shape.name();
    }

    Comparator<Object[]> entryOrder() {
        return entryOrder;
    }

    /** Compares an entry with leading index-key values: 0 when the entry starts with them. */
    int compareToPrefix(Object[] entry, Object[] prefix) {
        return indexOrder.compareToPrefix(entry, prefix);
    }

    /** The entry of a row, or null when the row is outside a partial index (or null itself). */
    Object[] entryOf(Object[] row) {
        if (row == null || !shape.covers(row)) {
            return null;
        }
        Object[] indexKey = shape.keyOf(row);
        Object[] key = table.keyOf(row);
        Object[] entry = new Object[indexKey.length + key.length];
        System.arraycopy(indexKey, 0, entry, 0, indexKey.length);
        System.arraycopy(key, 0, entry, indexKey.length, key.length);
        return entry;
    }

    /** The entries of every row of a row tree. */
    PersistentTree<Object[], Object[]> build(PersistentTree<Object[], Object[]> rows) {
        PersistentTree<Object[], Object[]> entries = PersistentTree.empty(entryOrder);
        var all = rows.range(k -> 0, false);
        while (all.hasNext()) {
            var e = all.next();
            Object[] entry = entryOf(e.value());
            if (entry != null) {
                entries = entries.put(entry, e.key());
            }
        }
        return entries;
    }
}
