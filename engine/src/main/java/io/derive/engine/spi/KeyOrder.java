package io.derive.engine.spi;

import io.derive.engine.types.Collation;
import io.derive.engine.types.ValueOrder;

import java.util.Comparator;
import java.util.List;

/**
 * The total order of a table's physical keys: component by component, each under its column's
 * collation and direction, with {@link ValueOrder} across types (NULL first ascending).
 * Hosts store rows in this order; two keys are the same key exactly when {@link #compare} is 0.
 */
public final class KeyOrder implements Comparator<Object[]> {
    private final Collation[] collations;
    private final boolean[] descending;

    public KeyOrder(List<Collation> collations, List<Boolean> descending) {
        if (collations.size() != descending.size()) {
            throw new IllegalArgumentException("one direction per key column");
        }
        this.collations = collations.toArray(new Collation[0]);
        this.descending = new boolean[descending.size()];
        for (int i = 0; i < this.descending.length; i++) {
            this.descending[i] = descending.get(i);
        }
    }

    /** Compares two full keys. */
    @Override
    public int compare(Object[] a, Object[] b) {
        return compareFirst(a, b, collations.length);
    }

    /**
     * Compares a key with a prefix on the prefix's components only: 0 means the key starts with
     * the prefix.
     */
    public int compareToPrefix(Object[] key, Object[] prefix) {
        return compareFirst(key, prefix, prefix.length);
    }

    /** Compares two values of key component {@code i} in value order (its collation, ignoring its direction). */
    public int compareComponent(int i, Object a, Object b) {
        return ValueOrder.compare(a, b, collations[i]);
    }

    public boolean descending(int i) {
        return descending[i];
    }

    public int width() {
        return collations.length;
    }

    private int compareFirst(Object[] a, Object[] b, int n) {
        for (int i = 0; i < n; i++) {
            int c = ValueOrder.compare(a[i], b[i], collations[i]);
            if (c != 0) {
                return descending[i] ? -c : c;
            }
        }
        return 0;
    }
}
