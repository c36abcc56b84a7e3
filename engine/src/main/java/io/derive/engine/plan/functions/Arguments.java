package io.derive.engine.plan.functions;

import io.derive.engine.api.DeriveException;
import io.derive.engine.schema.Numeric;
import io.derive.engine.types.TextValue;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;

/** How functions read their arguments, as SQLite's {@code sqlite3_value_*} accessors do. */
final class Arguments {
    /** SQLite's default SQLITE_MAX_LENGTH: the largest string or blob a function may build. */
    static final long MAX_LENGTH = 1_000_000_000L;

    private Arguments() {
    }

    /** The integer value: reals truncate toward zero and saturate at the 64-bit range. */
    static long integer(Object v) {
        if (v == null) {
            return 0;
        }
        Number n = Numeric.of(v instanceof byte[] b ? new String(b, StandardCharsets.UTF_8) : v);
        if (n instanceof Long l) {
            return l;
        }
        if (n instanceof BigDecimal d) {
            BigDecimal whole = d.setScale(0, RoundingMode.DOWN);
            return whole.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0 ? Long.MAX_VALUE
                    : whole.compareTo(BigDecimal.valueOf(Long.MIN_VALUE)) < 0 ? Long.MIN_VALUE : whole.longValue();
        }
        double d = n.doubleValue();
        return Double.isNaN(d) ? 0 : (long) d;
    }

    static double real(Object v) {
        if (v == null) {
            return 0;
        }
        return Numeric.of(v instanceof byte[] b ? new String(b, StandardCharsets.UTF_8) : v).doubleValue();
    }

    static String text(Object v) {
        return v == null ? "" : TextValue.of(v);
    }

    static byte[] bytes(Object v) {
        return v instanceof byte[] b ? b : text(v).getBytes(StandardCharsets.UTF_8);
    }

    /** Refuses a result longer than {@link #MAX_LENGTH}, as SQLite does. */
    static long checkedLength(long length) {
        if (length > MAX_LENGTH) {
            throw new DeriveException(DeriveException.DATA, "string or blob too big");
        }
        return length;
    }
}
