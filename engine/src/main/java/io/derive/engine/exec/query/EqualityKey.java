package io.derive.engine.exec.query;

import io.derive.engine.types.Collation;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * A hashable stand-in for a value such that two values are SQL-equal under a collation exactly
 * when their stand-ins are {@code equals}: integral numbers of any type become one {@link Long}
 * (so 1, 1.0 and 1.00 meet), text is folded as its collation compares it, blobs compare by
 * content. Hash joins and grouping use it instead of ordered maps.
 */
public final class EqualityKey {
    private EqualityKey() {
    }

    public static Object of(Object v, Collation collation) {
        if (v instanceof Long || v == null) {
            return v;
        }
        if (v instanceof Double d) {
            return integral(d) ? (Object) d.longValue() : d;
        }
        if (v instanceof Boolean b) {
            return b ? 1L : 0L;
        }
        if (v instanceof BigDecimal d) {
            return decimal(d);
        }
        if (v instanceof java.time.temporal.Temporal) {
            // Dates and times meet text by their ISO-8601 text (ValueOrder), so they key by it too.
            return of(io.derive.engine.types.TextValue.of(v), collation);
        }
        if (v instanceof String s) {
            return switch (collation) {
                case NOCASE -> foldAscii(s);
                case RTRIM -> stripSpaces(s);
                default -> s;
            };
        }
        if (v instanceof byte[] b) {
            return ByteBuffer.wrap(b);
        }
        return v;
    }

    /** The stand-ins of several values, as a list with value equality. */
    public static java.util.List<Object> of(Object[] values, java.util.List<Collation> collations) {
        Object[] keys = new Object[values.length];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = of(values[i], collations.get(i));
        }
        return Arrays.asList(keys);
    }

    private static boolean integral(double d) {
        return d == Math.rint(d) && d >= -9.223372036854775808E18 && d < 9.223372036854775808E18;
    }

    private static Object decimal(BigDecimal d) {
        BigDecimal stripped = d.stripTrailingZeros();
        if (stripped.scale() <= 0 && stripped.precision() - stripped.scale() <= 18) {
            return stripped.longValueExact();
        }
        double asDouble = d.doubleValue();
        return new BigDecimal(asDouble).compareTo(d) == 0 ? (Object) asDouble : stripped;
    }

    /** NOCASE folds the 26 ASCII letters only; without one, the string itself serves. */
    private static String foldAscii(String s) {
        int first = 0;
        while (first < s.length() && (s.charAt(first) < 'A' || s.charAt(first) > 'Z')) {
            first++;
        }
        if (first == s.length()) {
            return s;
        }
        char[] chars = s.toCharArray();
        for (int i = first; i < chars.length; i++) {
            if (chars[i] >= 'A' && chars[i] <= 'Z') {
                chars[i] = (char) (chars[i] + ('a' - 'A'));
            }
        }
        return new String(chars);
    }

    private static String stripSpaces(String s) {
        int end = s.length();
        while (end > 0 && s.charAt(end - 1) == ' ') {
            end--;
        }
        return s.substring(0, end);
    }
}
