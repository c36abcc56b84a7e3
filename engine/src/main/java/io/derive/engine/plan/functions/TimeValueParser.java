package io.derive.engine.plan.functions;

import io.derive.engine.types.TextValue;

import java.time.DateTimeException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the time-value argument of the date functions as SQLite does: {@code YYYY-MM-DD}
 * optionally followed by a time, a time alone ({@code HH:MM[:SS[.SSS]]}, on 2000-01-01), either
 * with a {@code Z} or {@code ±HH:MM} zone, {@code now}, or a number (a julian day number).
 */
final class TimeValueParser {
    private static final Pattern DATE = Pattern.compile("(-?\\d{4})-(\\d{2})-(\\d{2})(?:[ T]+(.*))?", Pattern.DOTALL);
    private static final Pattern TIME = Pattern.compile(
            "(\\d{2}):(\\d{2})(?::(\\d{2}(?:\\.\\d*)?))?\\s*(?:([zZ])|([+-])(\\d{2}):(\\d{2}))?\\s*", Pattern.DOTALL);
    private static final Pattern NUMBER = Pattern.compile("\\s*[+-]?(\\d+(\\.\\d*)?|\\.\\d+)([eE][+-]?\\d+)?\\s*");

    private TimeValueParser() {
    }

    /** The moment, or null when the value is not a time value. */
    static TimeComputation parse(Object value) {
        if (value instanceof Number || value instanceof Boolean) {
            return julianDay(Arguments.real(value));
        }
        String s = TextValue.of(value);
        if (s.equalsIgnoreCase("now")) {
            return new TimeComputation(JulianMoment.now(), null);
        }
        if (NUMBER.matcher(s).matches()) {
            return julianDay(Double.parseDouble(s.trim()));
        }
        Matcher d = DATE.matcher(s);
        try {
            if (d.matches()) {
                long year = Long.parseLong(d.group(1));
                int month = Integer.parseInt(d.group(2));
                int day = Integer.parseInt(d.group(3));
                if (month < 1 || month > 12 || day < 1 || day > 31) {
                    return null;
                }
                if (d.group(4) == null || d.group(4).isEmpty()) {
                    return moment(JulianMoment.of(year, month, day, 0, 0, 0));
                }
                return time(d.group(4), year, month, day);
            }
            return time(s, 2000, 1, 1);
        } catch (DateTimeException | ArithmeticException outOfRange) {
            return null;
        }
    }

    private static TimeComputation time(String text, long year, int month, int day) {
        Matcher t = TIME.matcher(text);
        if (!t.matches()) {
            return null;
        }
        int hour = Integer.parseInt(t.group(1));
        int minute = Integer.parseInt(t.group(2));
        double second = t.group(3) == null ? 0 : Double.parseDouble(t.group(3));
        if (hour > 24 || minute > 59 || second >= 60) {
            return null;
        }
        JulianMoment m = JulianMoment.of(year, month, day, hour, minute, second);
        if (t.group(5) != null) {
            int zoneHours = Integer.parseInt(t.group(6));
            int zoneMinutes = Integer.parseInt(t.group(7));
            if (zoneHours > 14 || zoneMinutes > 59) {
                return null;
            }
            long offset = (zoneHours * 60L + zoneMinutes) * 60_000L;
            m = m.plusMillis(t.group(5).equals("+") ? -offset : offset);
        }
        return moment(m);
    }

    private static TimeComputation julianDay(double day) {
        if (!(day >= 0 && day < 5373484.5)) {
            return new TimeComputation(null, day);
        }
        return new TimeComputation(new JulianMoment((long) (day * JulianMoment.MILLIS_PER_DAY + 0.5)), day);
    }

    private static TimeComputation moment(JulianMoment m) {
        return new TimeComputation(m, null);
    }
}
