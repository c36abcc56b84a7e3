package io.derive.engine.plan.functions;

import io.derive.engine.types.SqlType;
import io.derive.engine.types.TextValue;

import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * SQLite's date and time functions: {@code date}, {@code time}, {@code datetime},
 * {@code julianday}, {@code unixepoch} and {@code strftime} over a time value and modifiers
 * ({@link TimeValueParser}, {@link TimeComputation}), and the {@code current_date},
 * {@code current_time}, {@code current_timestamp} keywords. They return text (or numbers), as in
 * SQLite; a call without a time value or with {@code 'now'} reads the clock and is therefore not
 * deterministic, every other call is.
 */
public final class DateTimeFunctions {
    private DateTimeFunctions() {
    }

    public static List<ScalarFunction> all() {
        return List.of(
                timeFunction("date", SqlType.TEXT, (m, c) -> Strftime.format("%F", m, false)),
                timeFunction("time", SqlType.TEXT, (m, c) -> subsecond(Strftime.format("%T", m, false), m, c)),
                timeFunction("datetime", SqlType.TEXT,
                        (m, c) -> subsecond(Strftime.format("%F %T", m, false), m, c)),
                timeFunction("julianday", SqlType.REAL, (m, c) -> m.julianDay()),
                timeFunction("unixepoch", SqlType.INTEGER, (m, c) -> c.subsecond()
                        ? (Object) ((m.millis() - JulianMoment.UNIX_EPOCH) / 1000.0)
                        : (Object) ((m.millis() - JulianMoment.UNIX_EPOCH) / 1000))
                        .typedBy(args -> args.stream().skip(1).allMatch(DateTimeFunctions::notSubsecond) ? SqlType.INTEGER : SqlType.ANY),
                new ScalarFunction("strftime", 1, Integer.MAX_VALUE, true, true, SqlType.TEXT, DateTimeFunctions::strftime)
                        .readingClockWhen(args -> args.size() == 1 || readsClock(args.subList(1, args.size()))),
                clock("current_date", "%F"),
                clock("current_time", "%T"),
                clock("current_timestamp", "%F %T"));
    }

    private interface Output {
        Object of(JulianMoment moment, TimeComputation computation);
    }

    private static ScalarFunction timeFunction(String name, SqlType type, Output output) {
        Function<Object[], Object> impl = a -> {
            TimeComputation c = compute(a, 0);
            JulianMoment m = c == null ? null : c.result();
            return m == null ? null : output.of(m, c);
        };
        return new ScalarFunction(name, 0, Integer.MAX_VALUE, true, true, type, impl).readingClockWhen(DateTimeFunctions::readsClock);
    }

    private static ScalarFunction clock(String name, String format) {
        return new ScalarFunction(name, 0, 0, false, true, SqlType.TEXT,
                a -> Strftime.format(format, JulianMoment.now(), false));
    }

    private static String subsecond(String text, JulianMoment m, TimeComputation c) {
        return c.subsecond() ? text + "." + Strftime.millis(m) : text;
    }

    private static Object strftime(Object[] a) {
        TimeComputation c = compute(a, 1);
        JulianMoment m = c == null ? null : c.result();
        return m == null ? null : Strftime.format(TextValue.of(a[0]), m, c.subsecond());
    }

    /** The time value at {@code first} (now when absent) after the modifiers that follow it; null when invalid. */
    private static TimeComputation compute(Object[] a, int first) {
        TimeComputation c = a.length > first ? TimeValueParser.parse(a[first]) : new TimeComputation(JulianMoment.now(), null);
        for (int i = first + 1; c != null && i < a.length; i++) {
            if (!c.apply(TextValue.of(a[i]))) {
                return null;
            }
        }
        return c;
    }

    /** unixepoch() is an integer unless a modifier asks for subseconds, which a computed modifier might. */
    private static boolean notSubsecond(Argument modifier) {
        return modifier.isLiteral()
                && !(modifier.literalValue() instanceof String s && s.toLowerCase(Locale.ROOT).startsWith("subsec"));
    }

    /** A call reads the clock when it has no time value or a constant 'now' among its arguments. */
    private static boolean readsClock(List<? extends Argument> args) {
        Predicate<Argument> now = e -> e.isLiteral() && e.literalValue() instanceof String s
                && s.toLowerCase(Locale.ROOT).equals("now");
        return args.isEmpty() || args.stream().anyMatch(now);
    }
}
