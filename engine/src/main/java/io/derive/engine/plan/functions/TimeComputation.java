package io.derive.engine.plan.functions;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A time value on its way through the modifiers of a date function, in SQLite's order and with
 * its meanings: {@code ±N days|hours|minutes|seconds|months|years}, {@code ±HH:MM[:SS[.SSS]]},
 * {@code ±YYYY-MM-DD}, {@code start of day|month|year}, {@code weekday N}, {@code unixepoch},
 * {@code julianday}, {@code auto} (these three only right after a numeric time value),
 * {@code localtime}, {@code utc}, {@code subsec}, {@code floor} and {@code ceiling}.
 */
final class TimeComputation {
    private static final Pattern AMOUNT = Pattern.compile("([+-]?(?:\\d+(?:\\.\\d*)?|\\.\\d+))\\s*([a-z]+)");
    private static final Pattern CLOCK_SHIFT = Pattern.compile("([+-]?)(\\d{2}):(\\d{2})(?::(\\d{2}(?:\\.\\d*)?))?");
    private static final Pattern DATE_SHIFT = Pattern.compile("([+-])(\\d{4})-(\\d{2})-(\\d{2})(?:[ T]+(.*))?");
    private static final Pattern WEEKDAY = Pattern.compile("weekday (\\d+(?:\\.0*)?)");

    private JulianMoment moment;
    /** The numeric time value, while only {@code unixepoch}, {@code julianday} or {@code auto} may reinterpret it. */
    private Double number;
    private boolean subsecond;
    /** Days a month or year shift carried past the end of a month, which {@code floor} takes back. */
    private long overflowDays;

    TimeComputation(JulianMoment moment, Double number) {
        this.moment = moment;
        this.number = number;
    }

    boolean subsecond() {
        return subsecond;
    }

    /** The resulting moment, or null when it is invalid or out of range. */
    JulianMoment result() {
        return moment != null && moment.valid() ? moment : null;
    }

    /** Applies one modifier; false when it is not a valid modifier here. */
    boolean apply(String text) {
        String modifier = text.toLowerCase(Locale.ROOT);
        Double numeric = number;
        number = null;
        switch (modifier) {
            case "unixepoch" -> {
                if (numeric == null || Math.abs(numeric) > 1e15) {
                    return false;
                }
                moment = new JulianMoment(Math.round(numeric * 1000) + JulianMoment.UNIX_EPOCH);
                return true;
            }
            case "julianday" -> {
                return numeric != null && moment != null;
            }
            case "auto" -> {
                if (numeric == null) {
                    return false;
                }
                if (moment == null || numeric >= 5373484.5) {
                    moment = Math.abs(numeric) > 1e15 ? null : new JulianMoment(Math.round(numeric * 1000) + JulianMoment.UNIX_EPOCH);
                }
                return moment != null;
            }
            case "subsec", "subsecond" -> {
                subsecond = true;
                return true;
            }
            default -> {
                if (moment == null || !moment.valid()) {
                    return false;
                }
                return applyToMoment(modifier);
            }
        }
    }

    private boolean applyToMoment(String modifier) {
        switch (modifier) {
            case "localtime" -> {
                return zoneShift(true);
            }
            case "utc" -> {
                return zoneShift(false);
            }
            case "ceiling" -> {
                overflowDays = 0;
                return true;
            }
            case "floor" -> {
                moment = moment.plusMillis(-overflowDays * JulianMoment.MILLIS_PER_DAY);
                overflowDays = 0;
                return true;
            }
            case "start of day" -> {
                LocalDateTime f = moment.fields();
                moment = JulianMoment.of(f.getYear(), f.getMonthValue(), f.getDayOfMonth(), 0, 0, 0);
                return true;
            }
            case "start of month" -> {
                LocalDateTime f = moment.fields();
                moment = JulianMoment.of(f.getYear(), f.getMonthValue(), 1, 0, 0, 0);
                return true;
            }
            case "start of year" -> {
                moment = JulianMoment.of(moment.fields().getYear(), 1, 1, 0, 0, 0);
                return true;
            }
            default -> {
                return shift(modifier);
            }
        }
    }

    private boolean shift(String modifier) {
        Matcher weekday = WEEKDAY.matcher(modifier);
        if (weekday.matches()) {
            double n = Double.parseDouble(weekday.group(1));
            if (n >= 7) {
                return false;
            }
            long day = Math.floorMod((moment.millis() + 129_600_000L) / JulianMoment.MILLIS_PER_DAY, 7);
            long ahead = Math.floorMod((long) n - day, 7);
            moment = moment.plusMillis(ahead * JulianMoment.MILLIS_PER_DAY);
            return true;
        }
        Matcher clock = CLOCK_SHIFT.matcher(modifier);
        if (clock.matches()) {
            return clockShift(clock.group(1).equals("-"), clock.group(2), clock.group(3), clock.group(4));
        }
        Matcher date = DATE_SHIFT.matcher(modifier);
        if (date.matches()) {
            return dateShift(date);
        }
        Matcher amount = AMOUNT.matcher(modifier);
        return amount.matches() && amount(Double.parseDouble(amount.group(1)), amount.group(2));
    }

    private boolean clockShift(boolean negative, String hours, String minutes, String seconds) {
        double s = seconds == null ? 0 : Double.parseDouble(seconds);
        long ms = Long.parseLong(hours) * 3_600_000L + Long.parseLong(minutes) * 60_000L + Math.round(s * 1000);
        moment = moment.plusMillis(negative ? -ms : ms);
        return true;
    }

    private boolean dateShift(Matcher date) {
        int sign = date.group(1).equals("-") ? -1 : 1;
        long months = sign * (Long.parseLong(date.group(2)) * 12 + Long.parseLong(date.group(3)));
        if (!addMonths(months)) {
            return false;
        }
        moment = moment.plusMillis(sign * Long.parseLong(date.group(4)) * JulianMoment.MILLIS_PER_DAY);
        if (date.group(5) == null) {
            return true;
        }
        Matcher clock = CLOCK_SHIFT.matcher(date.group(5));
        return clock.matches() && clock.group(1).isEmpty()
                && clockShift(sign < 0, clock.group(2), clock.group(3), clock.group(4));
    }

    private boolean amount(double n, String unit) {
        switch (unit) {
            case "day", "days" -> {
                return Math.abs(n) < 5373485 && plus(n, 86_400_000.0);
            }
            case "hour", "hours" -> {
                return Math.abs(n) < 1.2897e8 && plus(n, 3_600_000.0);
            }
            case "minute", "minutes" -> {
                return Math.abs(n) < 7.7379e9 && plus(n, 60_000.0);
            }
            case "second", "seconds" -> {
                return Math.abs(n) < 4.6427e11 && plus(n, 1000.0);
            }
            case "month", "months" -> {
                // Whole months move the calendar; a fraction counts 30 days, as in SQLite.
                return Math.abs(n) < 176546 && addMonths((long) n) && plus(n - (long) n, 30 * 86_400_000.0);
            }
            case "year", "years" -> {
                return Math.abs(n) < 14713 && addMonths((long) n * 12) && plus(n - (long) n, 365 * 86_400_000.0);
            }
            default -> {
                return false;
            }
        }
    }

    private boolean plus(double n, double millisPerUnit) {
        moment = moment.plusMillis((long) (n * millisPerUnit + (n < 0 ? -0.5 : 0.5)));
        return true;
    }

    /** Adds months to the calendar fields, letting a day past the new month's end carry over. */
    private boolean addMonths(long months) {
        LocalDateTime f = moment.fields();
        long total = f.getYear() * 12L + f.getMonthValue() - 1 + months;
        long year = Math.floorDiv(total, 12);
        int month = (int) Math.floorMod(total, 12) + 1;
        try {
            int length = java.time.YearMonth.of(Math.toIntExact(year), month).lengthOfMonth();
            overflowDays = Math.max(0, f.getDayOfMonth() - length);
            moment = JulianMoment.of(year, month, f.getDayOfMonth(), f.getHour(), f.getMinute(), moment.seconds());
            return true;
        } catch (DateTimeException | ArithmeticException outOfRange) {
            return false;
        }
    }

    /** localtime: UTC to the JVM's zone; utc: back. */
    private boolean zoneShift(boolean toLocal) {
        ZoneId zone = ZoneId.systemDefault();
        Instant at = Instant.ofEpochMilli(moment.millis() - JulianMoment.UNIX_EPOCH);
        long offset = zone.getRules().getOffset(at).getTotalSeconds() * 1000L;
        moment = moment.plusMillis(toLocal ? offset : -offset);
        return true;
    }
}
