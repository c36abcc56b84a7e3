package io.derive.engine.api;

import java.time.DayOfWeek;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * When a materialized view is refreshed by its schedule (semantics §9): a cron expression in the
 * dialect of Jakarta Concurrency's {@code CronTrigger} — five fields, {@code minute hour
 * day-of-month month day-of-week}, or six with {@code second} first (five fields fire at second
 * 0). Each field is {@code *}, a number, a range {@code a-b}, an increment {@code a/n},
 * {@code a-b/n} or <code>*&#47;n</code>, or a comma-separated list of these; months
 * may be named ({@code JAN}–{@code DEC} or in full) and days of the week too ({@code SUN}–{@code
 * SAT} or in full; {@code 0} and {@code 7} are both Sunday); {@code ?} is {@code *}. When both
 * day fields are restricted, a day that matches either fires, as in Unix cron. Times are those of
 * the zone the caller names (the server's).
 *
 * <p>Immutable; {@link #text()} is the expression as written, trimmed.
 */
public final class RefreshSchedule {
    /** A schedule that has not fired for this long never will (it names, say, February 30). */
    private static final int HORIZON_YEARS = 9;

    private record Field(String name, int min, int max, Map<String, Integer> names) {
    }

    private static final Map<String, Integer> MONTHS = names(List.of("JANUARY", "FEBRUARY", "MARCH", "APRIL", "MAY",
            "JUNE", "JULY", "AUGUST", "SEPTEMBER", "OCTOBER", "NOVEMBER", "DECEMBER"), 1);
    private static final Map<String, Integer> DAYS = names(List.of("SUNDAY", "MONDAY", "TUESDAY", "WEDNESDAY",
            "THURSDAY", "FRIDAY", "SATURDAY"), 0);
    private static final Field SECOND = new Field("second", 0, 59, Map.of());
    private static final Field MINUTE = new Field("minute", 0, 59, Map.of());
    private static final Field HOUR = new Field("hour", 0, 23, Map.of());
    private static final Field DAY_OF_MONTH = new Field("day-of-month", 1, 31, Map.of());
    private static final Field MONTH = new Field("month", 1, 12, MONTHS);
    private static final Field DAY_OF_WEEK = new Field("day-of-week", 0, 7, DAYS);

    private final String text;
    private final BitSet seconds;
    private final BitSet minutes;
    private final BitSet hours;
    private final BitSet daysOfMonth;
    private final BitSet months;
    /** Sunday is 0. */
    private final BitSet daysOfWeek;
    private final boolean anyDayOfMonth;
    private final boolean anyDayOfWeek;

    private RefreshSchedule(String text, String[] fields) {
        this.text = text;
        int first = fields.length == 6 ? 1 : 0;
        this.seconds = fields.length == 6 ? parse(fields[0], SECOND) : parse("0", SECOND);
        this.minutes = parse(fields[first], MINUTE);
        this.hours = parse(fields[first + 1], HOUR);
        this.daysOfMonth = parse(fields[first + 2], DAY_OF_MONTH);
        this.months = parse(fields[first + 3], MONTH);
        BitSet week = parse(fields[first + 4], DAY_OF_WEEK);
        if (week.get(7)) {
            week.set(0);
            week.clear(7);
        }
        this.daysOfWeek = week;
        this.anyDayOfMonth = isAny(fields[first + 2]);
        this.anyDayOfWeek = isAny(fields[first + 4]);
    }

    /**
     * The schedule {@code text} writes.
     *
     * @throws DeriveException {@link DeriveException#SYNTAX} naming the field and the part of it
     *         that is not in the dialect or out of its range, or saying that the schedule never
     *         fires (it names only days that do not exist)
     */
    public static RefreshSchedule parse(String text) {
        String trimmed = text.trim();
        String[] fields = trimmed.isEmpty() ? new String[0] : trimmed.split("\\s+");
        if (fields.length != 5 && fields.length != 6) {
            throw invalid(trimmed, "it has " + fields.length + " field" + (fields.length == 1 ? "" : "s")
                    + "; a schedule has 5 (minute hour day-of-month month day-of-week) or 6 (second first)");
        }
        RefreshSchedule schedule = new RefreshSchedule(trimmed, fields);
        ZonedDateTime start = ZonedDateTime.of(2000, 1, 1, 0, 0, 0, 0, ZoneId.of("UTC"));
        if (schedule.nextWithin(start, start.plusYears(HORIZON_YEARS)).isEmpty()) {
            throw invalid(trimmed, "it never fires: no day matches its day and month fields");
        }
        return schedule;
    }

    /** The expression as written, trimmed. */
    public String text() {
        return text;
    }

    /** The first time strictly after {@code after} that the schedule names, read in {@code zone}. */
    public Instant next(Instant after, ZoneId zone) {
        ZonedDateTime from = after.atZone(zone);
        // parse() proved that some day fires within the horizon, and the calendar repeats.
        return nextWithin(from, from.plusYears(HORIZON_YEARS)).orElseThrow().toInstant();
    }

    private Optional<ZonedDateTime> nextWithin(ZonedDateTime after, ZonedDateTime horizon) {
        ZonedDateTime t = after.truncatedTo(ChronoUnit.SECONDS).plusSeconds(1);
        while (t.isBefore(horizon)) {
            if (!months.get(t.getMonthValue())) {
                t = t.withDayOfMonth(1).truncatedTo(ChronoUnit.DAYS).plusMonths(1);
            } else if (!dayMatches(t)) {
                t = t.truncatedTo(ChronoUnit.DAYS).plusDays(1);
            } else if (!hours.get(t.getHour())) {
                t = t.truncatedTo(ChronoUnit.HOURS).plusHours(1);
            } else if (!minutes.get(t.getMinute())) {
                t = t.truncatedTo(ChronoUnit.MINUTES).plusMinutes(1);
            } else if (!seconds.get(t.getSecond())) {
                t = t.plusSeconds(1);
            } else {
                return Optional.of(t);
            }
        }
        return Optional.empty();
    }

    private boolean dayMatches(ZonedDateTime t) {
        boolean month = daysOfMonth.get(t.getDayOfMonth());
        boolean week = daysOfWeek.get(t.getDayOfWeek() == DayOfWeek.SUNDAY ? 0 : t.getDayOfWeek().getValue());
        if (!anyDayOfMonth && !anyDayOfWeek) {
            return month || week;
        }
        return month && week;
    }

    private static boolean isAny(String field) {
        return field.equals("*") || field.equals("?");
    }

    private BitSet parse(String field, Field f) {
        BitSet values = new BitSet(f.max() + 1);
        for (String item : field.split(",", -1)) {
            String range = item;
            int step = 1;
            int slash = item.indexOf('/');
            if (slash >= 0) {
                range = item.substring(0, slash);
                step = number(item.substring(slash + 1), item, f);
                if (step < 1) {
                    throw invalid(text, f.name() + " field: the increment of '" + item + "' must be at least 1");
                }
            }
            int low;
            int high;
            if (range.equals("*") || range.equals("?")) {
                low = f.min();
                high = f == DAY_OF_WEEK ? 6 : f.max();
            } else if (range.indexOf('-') > 0) {
                low = value(range.substring(0, range.indexOf('-')), item, f);
                high = value(range.substring(range.indexOf('-') + 1), item, f);
                if (high < low) {
                    throw invalid(text, f.name() + " field: the range '" + item + "' ends before it starts");
                }
            } else {
                low = value(range, item, f);
                high = slash >= 0 ? (f == DAY_OF_WEEK ? 6 : f.max()) : low;
            }
            for (int v = low; v <= high; v += step) {
                values.set(v);
            }
        }
        return values;
    }

    private int value(String token, String item, Field f) {
        Integer named = f.names().get(token.toUpperCase(Locale.ROOT));
        int v = named != null ? named : number(token, item, f);
        if (v < f.min() || v > f.max()) {
            throw invalid(text, f.name() + " field: " + token + " is not in " + f.min() + "-" + f.max());
        }
        return v;
    }

    private int number(String token, String item, Field f) {
        if (token.isEmpty() || !token.chars().allMatch(Character::isDigit) || token.length() > 4) {
            throw invalid(text, f.name() + " field: '" + item + "' is not a number, a name, '*', a range, an increment"
                    + " or a list of them");
        }
        return Integer.parseInt(token);
    }

    private static DeriveException invalid(String text, String problem) {
        return new DeriveException(DeriveException.SYNTAX, "invalid refresh schedule '" + text + "': " + problem);
    }

    private static Map<String, Integer> names(List<String> full, int first) {
        java.util.HashMap<String, Integer> names = new java.util.HashMap<>();
        for (int i = 0; i < full.size(); i++) {
            names.put(full.get(i), first + i);
            names.put(full.get(i).substring(0, 3), first + i);
        }
        return Map.copyOf(names);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RefreshSchedule other && text.equals(other.text);
    }

    @Override
    public int hashCode() {
        return text.hashCode();
    }

    @Override
    public String toString() {
        return text;
    }
}
