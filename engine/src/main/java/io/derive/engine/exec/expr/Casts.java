package io.derive.engine.exec.expr;

import io.derive.engine.api.DeriveException;
import io.derive.engine.schema.Numeric;
import io.derive.engine.types.SqlType;
import io.derive.engine.types.TemporalValue;
import io.derive.engine.types.TextValue;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code cast(x as type)} and comparison affinity, as SQLite performs them: a cast to a number
 * reads the longest numeric prefix of text (or of a blob's text), saturates at the integer
 * range and never fails. Casts to {@code date}, {@code time} and {@code timestamp}, which SQLite
 * lacks, read ISO-8601 text and fail on anything else, as standard SQL does.
 */
final class Casts {
    private static final Pattern INTEGER_PREFIX = Pattern.compile("^\\s*([+-]?\\d+)");
    private static final BigDecimal LONG_MIN = BigDecimal.valueOf(Long.MIN_VALUE);
    private static final BigDecimal LONG_MAX = BigDecimal.valueOf(Long.MAX_VALUE);

    private Casts() {
    }

    static Object cast(Object v, SqlType target) {
        if (v == null) {
            return null;
        }
        return switch (target) {
            case INTEGER -> toInteger(v);
            case REAL -> Numeric.of(asNumberSource(v)).doubleValue();
            case NUMERIC -> toNumeric(Numeric.of(asNumberSource(v)));
            case TEXT -> TextValue.of(v);
            case BLOB -> v instanceof byte[] ? v : TextValue.of(v).getBytes(StandardCharsets.UTF_8);
            case BOOLEAN -> Numeric.truth(asNumberSource(v));
            case DATE, TIME, TIMESTAMP -> toTemporal(v, target);
            case ANY -> v;
        };
    }

    /** The value converted to the column type when that loses nothing; otherwise unchanged. */
    static Object affinity(Object v, SqlType target) {
        if (target == SqlType.TEXT) {
            // A number compared with a text column compares as text, as in SQLite ({@code s = 10} finds '10').
            return v instanceof Number ? TextValue.of(v) : v;
        }
        if (v == null || v instanceof Number || v instanceof Boolean) {
            return v;
        }
        try {
            return target.coerce(v, "");
        } catch (DeriveException notConvertible) {
            return v;
        }
    }

    /** A blob takes part in numeric casts through its text, as in SQLite ({@code cast(x'3132' as integer)} is 12). */
    private static Object asNumberSource(Object v) {
        return v instanceof byte[] b ? new String(b, StandardCharsets.UTF_8) : v;
    }

    private static Object toInteger(Object v) {
        Object source = asNumberSource(v);
        if (source instanceof String || TemporalValue.isTemporal(source)) {
            Matcher m = INTEGER_PREFIX.matcher(TextValue.of(source));
            return m.find() ? saturate(new BigDecimal(m.group(1))) : 0L;
        }
        Number n = Numeric.of(source);
        if (n instanceof Long) {
            return n;
        }
        if (n instanceof BigDecimal d) {
            return saturate(d);
        }
        double d = n.doubleValue();
        return Double.isNaN(d) ? 0L : (long) d; // a Java narrowing saturates, as SQLite's cast does
    }

    private static long saturate(BigDecimal d) {
        BigDecimal whole = d.setScale(0, RoundingMode.DOWN);
        return whole.compareTo(LONG_MIN) < 0 ? Long.MIN_VALUE : whole.compareTo(LONG_MAX) > 0 ? Long.MAX_VALUE : whole.longValue();
    }

    private static Object toNumeric(Number n) {
        if (n instanceof BigDecimal) {
            return n;
        }
        if (n instanceof Long l) {
            return BigDecimal.valueOf(l);
        }
        double d = n.doubleValue();
        return Double.isFinite(d) ? BigDecimal.valueOf(d) : null;
    }

    private static Object toTemporal(Object v, SqlType target) {
        Object result = null;
        if (v instanceof LocalDateTime ts) {
            result = target == SqlType.DATE ? ts.toLocalDate() : target == SqlType.TIME ? ts.toLocalTime() : ts;
        } else if (v instanceof LocalDate d) {
            result = target == SqlType.TIME ? null : target == SqlType.DATE ? d : d.atStartOfDay();
        } else if (v instanceof LocalTime t) {
            result = target == SqlType.TIME ? t : null;
        } else if (v instanceof String s) {
            result = target == SqlType.TIME ? TemporalValue.parseTime(s) : TemporalValue.parseTimestamp(s);
            if (result == null && target == SqlType.TIME) {
                LocalDateTime ts = TemporalValue.parseTimestamp(s);
                result = ts == null ? null : ts.toLocalTime();
            } else if (result != null && target == SqlType.DATE) {
                result = ((LocalDateTime) result).toLocalDate();
            }
        }
        if (result == null) {
            throw new DeriveException(DeriveException.DATA, "cannot cast " + describe(v) + " to " + target.sqlName());
        }
        return result;
    }

    private static String describe(Object v) {
        if (v instanceof byte[] b) {
            return "a blob of " + b.length + " bytes";
        }
        String text = TextValue.of(v);
        return (v instanceof String ? "text '" : "value '") + (text.length() > 40 ? text.substring(0, 40) + "…" : text) + "'";
    }
}
