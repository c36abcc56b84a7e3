package io.derive.engine.plan.functions;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

/**
 * A point in time as SQLite's date functions hold it: milliseconds since the julian-day epoch
 * (noon, 24 November 4714 BC, proleptic Gregorian), valid from there to the end of year 9999.
 */
record JulianMoment(long millis) {
    static final long MILLIS_PER_DAY = 86_400_000L;
    /** 1970-01-01 00:00 UTC, julian day 2440587.5, in milliseconds. */
    static final long UNIX_EPOCH = 210_866_760_000_000L;
    /** 9999-12-31 23:59:59.999, the last moment the functions render. */
    private static final long LAST = 464_269_060_799_999L;

    boolean valid() {
        return millis >= 0 && millis <= LAST;
    }

    static JulianMoment now() {
        return new JulianMoment(StatementClock.epochMillis() + UNIX_EPOCH);
    }

    /**
     * The moment of these fields; a day past the month's end, or hour 24, carries into the next
     * month or day as in SQLite ({@code 2024-02-30} is 1 March).
     */
    static JulianMoment of(long year, long month, long day, long hour, long minute, double second) {
        long epochDay = LocalDate.of(Math.toIntExact(year), (int) month, 1).toEpochDay() + day - 1;
        long ms = epochDay * MILLIS_PER_DAY + hour * 3_600_000L + minute * 60_000L + (long) (second * 1000 + 0.5);
        return new JulianMoment(ms + UNIX_EPOCH);
    }

    LocalDateTime fields() {
        long epochMillis = millis - UNIX_EPOCH;
        return LocalDateTime.ofEpochSecond(Math.floorDiv(epochMillis, 1000), (int) Math.floorMod(epochMillis, 1000) * 1_000_000,
                ZoneOffset.UTC);
    }

    /** Seconds within the minute, milliseconds included. */
    double seconds() {
        return Math.floorMod(millis, 60_000L) / 1000.0;
    }

    JulianMoment plusMillis(long delta) {
        return new JulianMoment(millis + delta);
    }

    double julianDay() {
        return millis / (double) MILLIS_PER_DAY;
    }
}
