package io.derive.cli.slt;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Locale;

/**
 * Renders a result value as the sqllogictest reference does for a column type letter, which reads
 * it through SQLite's C API: {@code I} as a 64-bit integer (reals truncated toward zero, text by
 * its leading numeric prefix), {@code R} as a double with three decimals, {@code T} as text. NULL
 * is {@code NULL} and an empty text {@code (empty)}; in text, characters outside printable ASCII
 * become {@code @}.
 */
final class ValueFormat {
    private static final int SIGNIFICANT_DIGITS = 16;
    private ValueFormat() {
    }

    static String format(Object value, char type) {
        if (value == null) {
            return "NULL";
        }
        return switch (type) {
            case 'I' -> Long.toString(asInteger(value));
            case 'R' -> threeDecimals(asReal(value));
            default -> text(value);
        };
    }

    private static long asInteger(Object value) {
        if (value instanceof Boolean b) {
            return b ? 1 : 0;
        }
        if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
            return ((Number) value).longValue();
        }
        if (value instanceof BigInteger || value instanceof BigDecimal) {
            return truncate(((Number) value).doubleValue());
        }
        if (value instanceof Number n) {
            return truncate(n.doubleValue());
        }
        return integerPrefix(textOf(value));
    }

    /** A double to integer as SQLite does: toward zero, saturating at the 64-bit range, NaN as 0. */
    private static long truncate(double d) {
        return (long) d;
    }

    /**
     * {@code %.3f} as SQLite's printf writes it: a real has at most 16 significant digits there,
     * and any further integer digits are written as zeros.
     */
    private static String threeDecimals(double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            return String.format(Locale.ROOT, "%.3f", d);
        }
        BigDecimal rounded = new BigDecimal(d).setScale(3, RoundingMode.HALF_UP);
        if (rounded.precision() > SIGNIFICANT_DIGITS) {
            rounded = rounded.round(new MathContext(SIGNIFICANT_DIGITS, RoundingMode.HALF_UP)).setScale(3);
        }
        String text = rounded.toPlainString();
        // A negative real that rounds to zero keeps its sign, as in C's printf.
        return d < 0 && rounded.signum() == 0 ? "-" + text : text;
    }

    private static double asReal(Object value) {
        if (value instanceof Boolean b) {
            return b ? 1 : 0;
        }
        if (value instanceof Number n) {
            return n.doubleValue();
        }
        return realPrefix(textOf(value));
    }

    private static String text(Object value) {
        String text = textOf(value);
        if (text.isEmpty()) {
            return "(empty)";
        }
        StringBuilder printable = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            printable.append(c < ' ' || c > '~' ? '@' : c);
        }
        return printable.toString();
    }

    private static String textOf(Object value) {
        if (value instanceof byte[] bytes) {
            return new String(bytes, java.nio.charset.StandardCharsets.UTF_8);
        }
        if (value instanceof Double d) {
            return realText(d);
        }
        if (value instanceof Boolean b) {
            return b ? "1" : "0";
        }
        return value.toString();
    }

    /**
     * A real as SQLite renders it as text ({@code %!.15g}): 15 significant digits, always with a
     * decimal point, in exponent form below 1e-4 and from 1e15 on.
     */
    private static String realText(double d) {
        if (Double.isNaN(d)) {
            return "NULL";
        }
        if (Double.isInfinite(d)) {
            return d > 0 ? "Inf" : "-Inf";
        }
        if (d == 0) {
            return "0.0";
        }
        BigDecimal rounded = new BigDecimal(d).round(new MathContext(15, RoundingMode.HALF_UP)).stripTrailingZeros();
        int exponent = rounded.precision() - rounded.scale() - 1;
        if (exponent >= -4 && exponent < 15) {
            String plain = rounded.toPlainString();
            return plain.contains(".") ? plain : plain + ".0";
        }
        String digits = rounded.unscaledValue().abs().toString();
        String fraction = digits.length() > 1 ? digits.substring(1) : "0";
        int magnitude = Math.abs(exponent);
        return (d < 0 ? "-" : "") + digits.charAt(0) + "." + fraction
                + "e" + (exponent < 0 ? "-" : "+") + (magnitude < 10 ? "0" : "") + magnitude;
    }

    /** The value of the longest leading integer in {@code text} (after blanks), 0 when there is none. */
    private static long integerPrefix(String text) {
        String t = text.stripLeading();
        int end = 0;
        if (end < t.length() && (t.charAt(end) == '+' || t.charAt(end) == '-')) {
            end++;
        }
        int digits = end;
        while (end < t.length() && Character.isDigit(t.charAt(end))) {
            end++;
        }
        if (end == digits) {
            return 0;
        }
        // A text that reads as a real (12.7, 1e3) converts through the real, as in SQLite.
        if (end < t.length() && (t.charAt(end) == '.' || t.charAt(end) == 'e' || t.charAt(end) == 'E')) {
            return truncate(realPrefix(t));
        }
        try {
            return Long.parseLong(t.substring(0, end));
        } catch (NumberFormatException e) {
            return t.charAt(0) == '-' ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
    }

    /** The value of the longest leading real in {@code text} (after blanks), 0 when there is none. */
    private static double realPrefix(String text) {
        String t = text.stripLeading();
        for (int end = t.length(); end > 0; end--) {
            String candidate = t.substring(0, end);
            if (candidate.matches("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?")) {
                return Double.parseDouble(candidate);
            }
        }
        return 0;
    }
}
