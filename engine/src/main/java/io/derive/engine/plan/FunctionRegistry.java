package io.derive.engine.plan;

import io.derive.engine.schema.Numeric;
import io.derive.engine.schema.SqlType;
import io.derive.engine.schema.TextValue;

import java.math.BigDecimal;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/** The built-in scalar functions, by lower-case name. */
public final class FunctionRegistry {
    private static final Map<String, ScalarFunction> FUNCTIONS = new HashMap<>();

    static {
        define("abs", 1, 1, true, SqlType.ANY, a -> abs(Numeric.of(a[0])));
        define("lower", 1, 1, true, SqlType.TEXT, a -> TextValue.of(a[0]).toLowerCase(Locale.ROOT));
        define("upper", 1, 1, true, SqlType.TEXT, a -> TextValue.of(a[0]).toUpperCase(Locale.ROOT));
        define("length", 1, 1, true, SqlType.INTEGER, a -> a[0] instanceof byte[] b
                ? (long) b.length : (long) TextValue.of(a[0]).codePointCount(0, TextValue.of(a[0]).length()));
        define("trim", 1, 1, true, SqlType.TEXT, a -> TextValue.of(a[0]).strip());
        define("substr", 2, 3, true, SqlType.TEXT, FunctionRegistry::substr);
        define("typeof", 1, 1, false, true, SqlType.TEXT, a -> typeOf(a[0]));
        define("coalesce", 2, Integer.MAX_VALUE, false, true, SqlType.ANY, FunctionRegistry::firstNonNull);
        define("ifnull", 2, 2, false, true, SqlType.ANY, FunctionRegistry::firstNonNull);
        define("nullif", 2, 2, false, true, SqlType.ANY, a -> a[0] != null && a[0].equals(a[1]) ? null : a[0]);
        define("random", 0, 0, false, false, SqlType.INTEGER, a -> ThreadLocalRandom.current().nextLong());
    }

    private FunctionRegistry() {
    }

    public static Optional<ScalarFunction> lookup(String name) {
        return Optional.ofNullable(FUNCTIONS.get(name.toLowerCase(Locale.ROOT)));
    }

    private static void define(String name, int min, int max, boolean nullPropagating, SqlType type,
                               java.util.function.Function<Object[], Object> impl) {
        define(name, min, max, nullPropagating, true, type, impl);
    }

    private static void define(String name, int min, int max, boolean nullPropagating, boolean deterministic,
                               SqlType type, java.util.function.Function<Object[], Object> impl) {
        FUNCTIONS.put(name, new ScalarFunction(name, min, max, deterministic, nullPropagating, type, impl));
    }

    private static Object abs(Number n) {
        if (n instanceof Long l) {
            return l == Long.MIN_VALUE ? (Object) Math.abs(l.doubleValue()) : (Object) Math.abs(l);
        }
        if (n instanceof BigDecimal d) {
            return d.abs();
        }
        return Math.abs(n.doubleValue());
    }

    private static Object substr(Object[] a) {
        String s = TextValue.of(a[0]);
        int[] cps = s.codePoints().toArray();
        long start = Numeric.of(a[1]).longValue();
        long length = a.length > 2 ? Numeric.of(a[2]).longValue() : Long.MAX_VALUE / 4;
        // SQLite: 1-based; 0 and negative starts count from the end, as its substr does.
        long from = start > 0 ? start - 1 : start < 0 ? cps.length + start : -1;
        long to = from + length;
        if (length < 0) {
            to = from;
            from = from + length;
        }
        if (start == 0 && length > 0) {
            to = length - 1;
            from = 0;
        }
        int begin = (int) Math.max(0, Math.min(cps.length, from));
        int end = (int) Math.max(begin, Math.min(cps.length, to));
        return new String(cps, begin, end - begin);
    }

    private static Object typeOf(Object v) {
        if (v == null) {
            return "null";
        }
        if (v instanceof Long || v instanceof Boolean) {
            return "integer";
        }
        if (v instanceof Double) {
            return "real";
        }
        if (v instanceof BigDecimal) {
            return "numeric";
        }
        if (v instanceof String) {
            return "text";
        }
        return "blob";
    }

    private static Object firstNonNull(Object[] a) {
        for (Object v : a) {
            if (v != null) {
                return v;
            }
        }
        return null;
    }
}
