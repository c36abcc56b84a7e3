package io.derive.engine.schema;

import io.derive.engine.types.TemporalValue;
import io.derive.engine.types.TextValue;
import java.math.BigDecimal;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How a value takes part in arithmetic, following SQLite: numbers as they are, booleans as 0/1,
 * text (and dates, times, timestamps, through their ISO-8601 text) as its longest leading
 * numeric prefix (else 0), blobs as 0.
 */
public final class Numeric {
    private static final Pattern NUMERIC_PREFIX =
            Pattern.compile("^\\s*([+-]?(\\d+(\\.\\d*)?|\\.\\d+)([eE][+-]?\\d+)?)");

    private Numeric() {
    }

    /** A Long, Double or BigDecimal for a non-null value. */
    public static Number of(Object v) {
        if (v instanceof Long || v instanceof Double || v instanceof BigDecimal) {
            return (Number) v;
        }
        if (v instanceof Boolean b) {
            return b ? 1L : 0L;
        }
        if (TemporalValue.isTemporal(v)) {
            return of(TextValue.of(v));
        }
        if (v instanceof String s) {
            Matcher m = NUMERIC_PREFIX.matcher(s);
            if (!m.find()) {
                return 0L;
            }
            String prefix = m.group(1);
            if (m.group(3) == null && m.group(4) == null && !prefix.startsWith(".")) {
                try {
                    return Long.parseLong(prefix);
                } catch (NumberFormatException tooLarge) {
                    return Double.parseDouble(prefix);
                }
            }
            return Double.parseDouble(prefix);
        }
        if (v instanceof Number n) {
            return n.longValue();
        }
        return 0L;
    }

    /** SQL truth of a value: NULL stays null, numbers are true when non-zero. */
    public static Boolean truth(Object v) {
        if (v == null) {
            return null;
        }
        if (v instanceof Boolean b) {
            return b;
        }
        Number n = of(v);
        if (n instanceof Long l) {
            return l != 0;
        }
        if (n instanceof BigDecimal d) {
            return d.signum() != 0;
        }
        return n.doubleValue() != 0.0;
    }
}
