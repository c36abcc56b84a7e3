package io.derive.engine.types;

import io.derive.engine.types.TemporalValue;
import io.derive.engine.types.TextValue;
import java.math.BigDecimal;
import java.util.Arrays;

/**
 * SQLite's total order over values of any type: NULL, then numbers (integer, real, numeric and
 * boolean compared by numeric value), then text (under a collation), then blobs (bytewise).
 * Dates, times and timestamps rank with text: two values of one of these types compare
 * chronologically, and anything else they meet in that rank compares by their ISO-8601 text,
 * which agrees with the chronological order ({@link TemporalValue}), so {@code d = '2024-01-31'}
 * and {@code d < date('now')} mean what they say.
 * Used for keys, {@code order by}, {@code distinct} and comparisons once NULL has been handled.
 */
public final class ValueOrder {
    private ValueOrder() {
    }

    public static int compare(Object a, Object b, Collation collation) {
        // integers first: they are most keys, and an exact class test is the cheapest there is
        if (a instanceof Long x && b instanceof Long y) {
            return Long.compare(x, y);
        }
        int ra = rank(a);
        int rb = rank(b);
        if (ra != rb) {
            return Integer.compare(ra, rb);
        }
        return switch (ra) {
            case 0 -> 0;
            case 1 -> compareNumbers(a, b);
            case 2 -> compareTexts(a, b, collation);
            default -> Arrays.compareUnsigned((byte[]) a, (byte[]) b);
        };
    }

    /** Value identity as a host must report it: same type and same value, byte for byte. */
    public static boolean identical(Object a, Object b) {
        if (a instanceof byte[] x && b instanceof byte[] y) {
            return Arrays.equals(x, y);
        }
        if (a instanceof BigDecimal x && b instanceof BigDecimal y) {
            return x.equals(y);
        }
        return a == null ? b == null : a.equals(b);
    }

    /** Row identity: {@link #identical} column by column. */
    public static boolean identicalRows(Object[] a, Object[] b) {
        if (a.length != b.length) {
            return false;
        }
        for (int i = 0; i < a.length; i++) {
            if (!identical(a[i], b[i])) {
                return false;
            }
        }
        return true;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static int compareTexts(Object a, Object b, Collation collation) {
        if (a instanceof String x && b instanceof String y) {
            return collation.compare(x, y);
        }
        if (a.getClass() == b.getClass()) {
            return ((Comparable) a).compareTo(b);
        }
        return collation.compare(TextValue.of(a), TextValue.of(b));
    }

    private static int rank(Object v) {
        if (v == null) {
            return 0;
        }
        if (v instanceof Number || v instanceof Boolean) {
            return 1;
        }
        if (v instanceof String || TemporalValue.isTemporal(v)) {
            return 2;
        }
        return 3;
    }

    private static int compareNumbers(Object a, Object b) {
        if (a instanceof Long x && b instanceof Long y) {
            return Long.compare(x, y);
        }
        if (a instanceof BigDecimal || b instanceof BigDecimal) {
            return toBigDecimal(a).compareTo(toBigDecimal(b));
        }
        if (a instanceof Double || b instanceof Double) {
            return compareMixed(a, b);
        }
        return Long.compare(toLong(a), toLong(b));
    }

    private static int compareMixed(Object a, Object b) {
        if (a instanceof Double x && b instanceof Double y) {
            // SQL equality, not Double.compare: -0.0 equals 0.0; NaN (never stored by SQLite) sorts last.
            return x < y ? -1 : x > y ? 1 : x.doubleValue() == y.doubleValue() ? 0 : Double.compare(x, y);
        }
        // A long and a double: compare exactly, not through a lossy double conversion.
        double d = a instanceof Double x ? x : (Double) b;
        long l = a instanceof Double ? toLong(b) : toLong(a);
        int c = Double.isNaN(d) ? 1 : new BigDecimal(d).compareTo(BigDecimal.valueOf(l));
        return a instanceof Double ? c : -c;
    }

    private static long toLong(Object v) {
        if (v instanceof Boolean bool) {
            return bool ? 1 : 0;
        }
        return ((Number) v).longValue();
    }

    private static BigDecimal toBigDecimal(Object v) {
        if (v instanceof BigDecimal d) {
            return d;
        }
        if (v instanceof Double d) {
            return new BigDecimal(d);
        }
        return BigDecimal.valueOf(toLong(v));
    }
}
