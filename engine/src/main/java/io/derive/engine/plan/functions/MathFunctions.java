package io.derive.engine.plan.functions;

import io.derive.engine.api.DeriveException;
import io.derive.engine.schema.Numeric;
import io.derive.engine.types.Collation;
import io.derive.engine.types.SqlType;
import io.derive.engine.types.ValueOrder;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;

import static io.derive.engine.plan.functions.Arguments.integer;
import static io.derive.engine.plan.functions.Arguments.real;
import static io.derive.engine.plan.functions.Definitions.nonDeterministic;
import static io.derive.engine.plan.functions.Definitions.nullAware;
import static io.derive.engine.plan.functions.Definitions.strict;

/** Numeric functions, random values and blob builders, with SQLite's semantics. */
public final class MathFunctions {
    /** 2^52: from here on every double is an integer, so rounding leaves it unchanged. */
    private static final double INTEGRAL_DOUBLES = 4503599627370496.0;
    private static final Pattern WELL_FORMED_NUMBER =
            Pattern.compile("\\s*[+-]?(\\d+(\\.\\d*)?|\\.\\d+)([eE][+-]?\\d+)?\\s*");

    private MathFunctions() {
    }

    public static List<ScalarFunction> all() {
        return List.of(
                strict("abs", 1, 1, SqlType.ANY, a -> abs(a[0])).typedBy(MathFunctions::absType),
                strict("round", 1, 2, SqlType.REAL, MathFunctions::round),
                strict("sign", 1, 1, SqlType.INTEGER, a -> sign(a[0])),
                strict("min", 2, Integer.MAX_VALUE, SqlType.ANY, a -> extreme(a, -1)),
                strict("max", 2, Integer.MAX_VALUE, SqlType.ANY, a -> extreme(a, 1)),
                nonDeterministic("random", 0, 0, SqlType.INTEGER, a -> ThreadLocalRandom.current().nextLong()),
                nonDeterministic("randomblob", 1, 1, SqlType.BLOB, a -> randomBlob(integer(a[0]))),
                nullAware("zeroblob", 1, 1, SqlType.BLOB,
                        a -> new byte[(int) Arguments.checkedLength(Math.max(0, integer(a[0])))]));
    }

    /** Numbers keep their type; anything else converts to a real. */
    private static SqlType absType(List<? extends Argument> args) {
        SqlType t = args.get(0).type();
        return switch (t) {
            case INTEGER, REAL, NUMERIC, ANY -> t;
            case BOOLEAN -> SqlType.INTEGER;
            default -> SqlType.REAL;
        };
    }

    private static Object abs(Object v) {
        if (v instanceof Long l) {
            if (l == Long.MIN_VALUE) {
                throw new DeriveException(DeriveException.DATA, "integer overflow in abs()");
            }
            return Math.abs(l);
        }
        if (v instanceof Boolean) {
            return Numeric.of(v);
        }
        if (v instanceof BigDecimal d) {
            return d.abs();
        }
        return Math.abs(real(v));
    }

    /** round(x, n): half away from zero on x's exact value, n clamped to [0, 30]; always real. */
    private static Object round(Object[] a) {
        double x = real(a[0]);
        long digits = a.length > 1 ? Math.max(0, Math.min(30, integer(a[1]))) : 0;
        if (!Double.isFinite(x) || Math.abs(x) >= INTEGRAL_DOUBLES) {
            return x;
        }
        return new BigDecimal(x).setScale((int) digits, RoundingMode.HALF_UP).doubleValue();
    }

    /** -1, 0 or 1; NULL for text or a blob that is not a well-formed number. */
    private static Object sign(Object v) {
        if (v instanceof String s && !WELL_FORMED_NUMBER.matcher(s).matches()) {
            return null;
        }
        if (v instanceof byte[] || io.derive.engine.types.TemporalValue.isTemporal(v)) {
            return null;
        }
        Number n = Numeric.of(v);
        int signum = n instanceof Long l ? Long.signum(l)
                : n instanceof BigDecimal d ? d.signum() : (int) Math.signum(n.doubleValue());
        return (long) signum;
    }

    /** The smallest (direction -1) or largest (1) argument in SQLite's value order. */
    private static Object extreme(Object[] a, int direction) {
        Object best = a[0];
        for (int i = 1; i < a.length; i++) {
            if (ValueOrder.compare(a[i], best, Collation.BINARY) * direction > 0) {
                best = a[i];
            }
        }
        return best;
    }

    private static Object randomBlob(long n) {
        byte[] b = new byte[(int) Arguments.checkedLength(Math.max(1, n))];
        ThreadLocalRandom.current().nextBytes(b);
        return b;
    }
}
