package io.derive.engine.types;

import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.temporal.Temporal;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The values of the {@code date}, {@code time} and {@code timestamp} types: {@link LocalDate},
 * {@link LocalTime} and {@link LocalDateTime}, read from and rendered as ISO-8601 text.
 * Rendering is canonical (seconds always shown, no trailing zeros in the fraction, a space
 * between date and time as SQLite's {@code datetime()} writes it) and years are limited to
 * 0000–9999, so the text order of two values equals their chronological order: that is what lets
 * {@link ValueOrder} compare a date with text such as {@code date('now')}.
 */
public final class TemporalValue {
    private static final Pattern DATE = Pattern.compile("(\\d{4})-(\\d{2})-(\\d{2})");
    private static final Pattern TIME = Pattern.compile("(\\d{2}):(\\d{2})(?::(\\d{2})(?:\\.(\\d{1,9}))?)?");
    private static final Pattern TIMESTAMP = Pattern.compile(DATE.pattern() + "(?:[ T]" + TIME.pattern() + ")?");

    private TemporalValue() {
    }

    public static boolean isTemporal(Object v) {
        return v instanceof LocalDate || v instanceof LocalTime || v instanceof LocalDateTime;
    }

    /** The canonical ISO-8601 text of a date, time or timestamp. */
    public static String render(Temporal v) {
        if (v instanceof LocalDate d) {
            return date(d);
        }
        if (v instanceof LocalTime t) {
            return time(t);
        }
        LocalDateTime ts = (LocalDateTime) v;
        return date(ts.toLocalDate()) + " " + time(ts.toLocalTime());
    }

    /** {@code YYYY-MM-DD}, or null when the text is not a valid date. */
    public static LocalDate parseDate(String text) {
        Matcher m = DATE.matcher(text.trim());
        if (!m.matches()) {
            return null;
        }
        return date(m, 1);
    }

    /** {@code HH:MM[:SS[.fraction]]}, or null when the text is not a valid time of day. */
    public static LocalTime parseTime(String text) {
        Matcher m = TIME.matcher(text.trim());
        if (!m.matches()) {
            return null;
        }
        return time(m, 1);
    }

    /** {@code YYYY-MM-DD[( |T)HH:MM[:SS[.fraction]]]}, or null when the text is not a valid timestamp. */
    public static LocalDateTime parseTimestamp(String text) {
        Matcher m = TIMESTAMP.matcher(text.trim());
        if (!m.matches()) {
            return null;
        }
        LocalDate d = date(m, 1);
        LocalTime t = m.group(4) == null ? LocalTime.MIDNIGHT : time(m, 4);
        return d == null || t == null ? null : LocalDateTime.of(d, t);
    }

    private static LocalDate date(Matcher m, int group) {
        try {
            return LocalDate.of(Integer.parseInt(m.group(group)), Integer.parseInt(m.group(group + 1)),
                    Integer.parseInt(m.group(group + 2)));
        } catch (DateTimeException invalid) {
            return null;
        }
    }

    private static LocalTime time(Matcher m, int group) {
        String seconds = m.group(group + 2);
        String fraction = m.group(group + 3);
        try {
            int nanos = fraction == null ? 0 : Integer.parseInt((fraction + "00000000").substring(0, 9));
            return LocalTime.of(Integer.parseInt(m.group(group)), Integer.parseInt(m.group(group + 1)),
                    seconds == null ? 0 : Integer.parseInt(seconds), nanos);
        } catch (DateTimeException invalid) {
            return null;
        }
    }

    private static String date(LocalDate d) {
        return String.format("%04d-%02d-%02d", d.getYear(), d.getMonthValue(), d.getDayOfMonth());
    }

    private static String time(LocalTime t) {
        String hms = String.format("%02d:%02d:%02d", t.getHour(), t.getMinute(), t.getSecond());
        if (t.getNano() == 0) {
            return hms;
        }
        String fraction = String.format("%09d", t.getNano()).replaceAll("0+$", "");
        return hms + "." + fraction;
    }
}
