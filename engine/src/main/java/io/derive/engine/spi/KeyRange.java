package io.derive.engine.spi;

/**
 * A contiguous range of a table's physical keys: those that begin with {@code prefix} and whose
 * next key component lies between the bounds, in value order under that column's collation
 * (whatever the column's direction). A null bound is open on that side. Ranges narrow scans;
 * the engine still applies its own predicates to the rows it gets.
 */
public record KeyRange(Object[] prefix, Object lower, boolean lowerInclusive, Object upper, boolean upperInclusive) {

    /** Where a key lies relative to the range in key order: negative before, 0 inside, positive after. */
    public int position(Object[] key, KeyOrder order) {
        int c = order.compareToPrefix(key, prefix);
        if (c != 0 || prefix.length >= order.width()) {
            return c;
        }
        int i = prefix.length;
        int pos = 0;
        if (lower != null) {
            int l = order.compareComponent(i, key[i], lower);
            if (l < 0 || (l == 0 && !lowerInclusive)) {
                pos = -1;
            }
        }
        if (pos == 0 && upper != null) {
            int u = order.compareComponent(i, key[i], upper);
            if (u > 0 || (u == 0 && !upperInclusive)) {
                pos = 1;
            }
        }
        return order.descending(i) ? -pos : pos;
    }
}
