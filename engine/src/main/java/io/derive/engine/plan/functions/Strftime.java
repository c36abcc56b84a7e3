package io.derive.engine.plan.functions;

import java.time.LocalDateTime;
import java.time.temporal.IsoFields;
import java.util.Locale;

/**
 * strftime's conversions, as SQLite defines them: {@code %d %e %f %F %G %g %H %I %j %J %k %l %m
 * %M %p %P %R %s %S %T %u %U %V %w %W %Y %%}. Any other conversion makes the result NULL.
 */
final class Strftime {
    private Strftime() {
    }

    /** The formatted moment, or null for an unknown conversion. */
    static String format(String pattern, JulianMoment m, boolean subsecond) {
        LocalDateTime f = m.fields();
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (c != '%') {
                out.append(c);
                continue;
            }
            if (++i >= pattern.length()) {
                return null;
            }
            char conversion = pattern.charAt(i);
            String piece = conversion(conversion, f, m, subsecond);
            if (piece == null) {
                return null;
            }
            out.append(piece);
        }
        return out.toString();
    }

    private static String conversion(char c, LocalDateTime f, JulianMoment m, boolean subsecond) {
        int weekday = f.getDayOfWeek().getValue() % 7; // 0 = Sunday
        int yearDay = f.getDayOfYear() - 1;
        long epochMillis = m.millis() - JulianMoment.UNIX_EPOCH;
        return switch (c) {
            case 'd' -> two(f.getDayOfMonth());
            case 'e' -> String.format(Locale.ROOT, "%2d", f.getDayOfMonth());
            case 'f' -> String.format(Locale.ROOT, "%06.3f", Math.min(59.999, m.seconds()));
            case 'F' -> year(f.getYear()) + "-" + two(f.getMonthValue()) + "-" + two(f.getDayOfMonth());
            case 'G' -> year(f.get(IsoFields.WEEK_BASED_YEAR));
            case 'g' -> two(Math.floorMod(f.get(IsoFields.WEEK_BASED_YEAR), 100));
            case 'H' -> two(f.getHour());
            case 'I' -> two(f.getHour() % 12 == 0 ? 12 : f.getHour() % 12);
            case 'j' -> String.format(Locale.ROOT, "%03d", yearDay + 1);
            case 'J' -> julian(m.julianDay());
            case 'k' -> String.format(Locale.ROOT, "%2d", f.getHour());
            case 'l' -> String.format(Locale.ROOT, "%2d", f.getHour() % 12 == 0 ? 12 : f.getHour() % 12);
            case 'm' -> two(f.getMonthValue());
            case 'M' -> two(f.getMinute());
            case 'p' -> f.getHour() < 12 ? "AM" : "PM";
            case 'P' -> f.getHour() < 12 ? "am" : "pm";
            case 'R' -> two(f.getHour()) + ":" + two(f.getMinute());
            case 's' -> subsecond ? String.format(Locale.ROOT, "%.3f", epochMillis / 1000.0) : Long.toString(Math.floorDiv(epochMillis, 1000));
            case 'S' -> two(f.getSecond());
            case 'T' -> two(f.getHour()) + ":" + two(f.getMinute()) + ":" + two(f.getSecond());
            case 'u' -> Integer.toString(weekday == 0 ? 7 : weekday);
            case 'U' -> two((yearDay + 7 - weekday) / 7);
            case 'V' -> two(f.get(IsoFields.WEEK_OF_WEEK_BASED_YEAR));
            case 'w' -> Integer.toString(weekday);
            case 'W' -> two((yearDay + 7 - (weekday + 6) % 7) / 7);
            case 'Y' -> year(f.getYear());
            case '%' -> "%";
            default -> null;
        };
    }

    private static String two(int v) {
        return String.format(Locale.ROOT, "%02d", v);
    }

    private static String year(int y) {
        return y < 0 ? String.format(Locale.ROOT, "-%04d", -y) : String.format(Locale.ROOT, "%04d", y);
    }

    /** %J: the julian day with up to 16 significant digits, as SQLite's %.16g. */
    private static String julian(double day) {
        return new java.math.BigDecimal(day).round(new java.math.MathContext(16)).stripTrailingZeros().toPlainString();
    }

    /** The milliseconds of the second, three digits: the fraction {@code subsec} adds to time and datetime. */
    static String millis(JulianMoment m) {
        return String.format(Locale.ROOT, "%03d", Math.floorMod(m.millis(), 1000L));
    }
}
