package io.derive.derby;

import io.derive.engine.spi.TableShape;
import io.derive.engine.types.SqlType;

import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * An upper bound of the absolute values a table's {@code integer} columns hold in Derby, so that
 * {@link DerbyAggregate} can show a sum free of overflow in any order of adding without having
 * Derby find each group's greatest absolute value as well.
 *
 * <p>A column's bound is known once an aggregate has read every value of it from a Derby that
 * held exactly a snapshot ({@link #learned}); from then on it is the greater of what that read
 * found and every value written since. Every write {@linkplain #writing announces} its values
 * before its key's before-image is registered, so a reader that finds no write announced between
 * reading a bound and finishing its query read no value above it. The bound only grows: a deleted
 * value, or one of a write rolled back, leaves it loose, never wrong. Thread-safe.
 */
final class ColumnMagnitudes {
    private static final long UNKNOWN = -1;

    private final boolean[] integer;
    private final AtomicLongArray written;
    private final AtomicLongArray read;

    ColumnMagnitudes(TableShape shape) {
        int n = shape.columns().size();
        integer = new boolean[n];
        written = new AtomicLongArray(n);
        read = new AtomicLongArray(n);
        for (int c = 0; c < n; c++) {
            integer[c] = shape.columns().get(c).type() == SqlType.INTEGER;
            read.set(c, UNKNOWN);
        }
    }

    /** A row is about to be written to Derby: its integer values raise their columns' bounds. */
    void writing(Object[] row) {
        for (int c = 0; c < integer.length; c++) {
            if (integer[c] && row[c] instanceof Long value) {
                raise(written, c, magnitude(value));
            }
        }
    }

    /** A query that read every value of {@code column}, as a snapshot holds them, found none above {@code greatest}. */
    void learned(int column, long greatest) {
        raise(read, column, greatest);
    }

    /** The bound of {@code column}, when one is known. */
    OptionalLong bound(int column) {
        long learned = read.get(column);
        return learned == UNKNOWN ? OptionalLong.empty() : OptionalLong.of(Math.max(learned, written.get(column)));
    }

    /** The absolute value, with {@code Long.MIN_VALUE}'s taken as the greatest there is. */
    static long magnitude(long value) {
        return value == Long.MIN_VALUE ? Long.MAX_VALUE : Math.abs(value);
    }

    private static void raise(AtomicLongArray bounds, int column, long value) {
        long current = bounds.get(column);
        while (value > current && !bounds.compareAndSet(column, current, value)) {
            current = bounds.get(column);
        }
    }
}
