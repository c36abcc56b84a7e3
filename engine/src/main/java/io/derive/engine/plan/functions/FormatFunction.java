package io.derive.engine.plan.functions;

import io.derive.engine.types.SqlType;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.List;

import static io.derive.engine.plan.functions.Arguments.integer;
import static io.derive.engine.plan.functions.Arguments.text;

/**
 * {@code printf(format, …)} and its alias {@code format}, as SQLite's SQL printf: conversions
 * {@code d i u f e E g G x X o s z q Q w c %} with flags {@code - + space 0 # ,}, width and
 * precision (either may be {@code *}). A missing argument counts as NULL; an unknown conversion
 * ends the output there. Reals are rounded half away from zero on at most 16 significant digits.
 */
public final class FormatFunction {
    private static final int SIGNIFICANT_DIGITS = 16;

    private FormatFunction() {
    }

    public static List<ScalarFunction> all() {
        return List.of(
                Definitions.nullAware("printf", 1, Integer.MAX_VALUE, SqlType.TEXT, FormatFunction::format),
                Definitions.nullAware("format", 1, Integer.MAX_VALUE, SqlType.TEXT, FormatFunction::format));
    }

    private static final class Spec {
        boolean left;
        boolean plus;
        boolean space;
        boolean zero;
        boolean alternate;
        boolean thousands;
        int width;
        int precision = -1;
    }

    private static Object format(Object[] a) {
        if (a[0] == null) {
            return null;
        }
        String f = text(a[0]);
        StringBuilder out = new StringBuilder();
        int next = 1;
        int i = 0;
        while (i < f.length()) {
            char c = f.charAt(i++);
            if (c != '%') {
                out.append(c);
                continue;
            }
            if (i >= f.length()) {
                out.append('%');
                break;
            }
            Spec spec = new Spec();
            for (boolean flag = true; flag && i < f.length(); ) {
                switch (f.charAt(i)) {
                    case '-' -> spec.left = true;
                    case '+' -> spec.plus = true;
                    case ' ' -> spec.space = true;
                    case '0' -> spec.zero = true;
                    case '#' -> spec.alternate = true;
                    case ',' -> spec.thousands = true;
                    case '!' -> { }
                    default -> flag = false;
                }
                if (flag) {
                    i++;
                }
            }
            if (i < f.length() && f.charAt(i) == '*') {
                long w = integer(next < a.length ? a[next] : null);
                next++;
                i++;
                if (w < 0) {
                    spec.left = true;
                    w = -w;
                }
                spec.width = (int) Arguments.checkedLength(w);
            } else {
                int start = i;
                while (i < f.length() && Character.isDigit(f.charAt(i))) {
                    i++;
                }
                spec.width = parseBounded(f.substring(start, i));
            }
            if (i < f.length() && f.charAt(i) == '.') {
                i++;
                if (i < f.length() && f.charAt(i) == '*') {
                    long p = integer(next < a.length ? a[next] : null);
                    next++;
                    i++;
                    spec.precision = (int) Arguments.checkedLength(p == Long.MIN_VALUE ? Long.MAX_VALUE : Math.abs(p));
                } else {
                    int start = i;
                    while (i < f.length() && Character.isDigit(f.charAt(i))) {
                        i++;
                    }
                    spec.precision = parseBounded(f.substring(start, i));
                }
            }
            while (i < f.length() && f.charAt(i) == 'l') {
                i++;
            }
            if (i >= f.length()) {
                break;
            }
            char conversion = f.charAt(i++);
            if (conversion == '%') {
                out.append(pad("%", spec));
                continue;
            }
            Object arg = next < a.length ? a[next] : null;
            next++;
            String piece = convert(conversion, arg, spec);
            if (piece == null) {
                break;
            }
            out.append(piece);
            Arguments.checkedLength(out.length());
        }
        return out.toString();
    }

    private static int parseBounded(String digits) {
        if (digits.isEmpty()) {
            return 0;
        }
        return (int) Arguments.checkedLength(digits.length() > 18 ? Long.MAX_VALUE : Long.parseLong(digits));
    }

    /** One conversion's text, padded to its width; null for an unknown conversion. */
    private static String convert(char conversion, Object arg, Spec spec) {
        switch (conversion) {
            case 'd', 'i', 'u' -> {
                long v = integer(arg);
                boolean negative = v < 0 && conversion != 'u';
                String digits = conversion == 'u' ? Long.toUnsignedString(v)
                        : v == Long.MIN_VALUE ? "9223372036854775808" : Long.toString(Math.abs(v));
                return number(sign(negative, spec), withPrecision(group(digits, spec), spec), spec);
            }
            case 'x', 'X', 'o' -> {
                long v = integer(arg);
                String digits = Long.toUnsignedString(v, conversion == 'o' ? 8 : 16);
                if (conversion == 'X') {
                    digits = digits.toUpperCase(java.util.Locale.ROOT);
                }
                digits = withPrecision(digits, spec);
                String prefix = !spec.alternate || v == 0 ? "" : conversion == 'o' ? "0" : conversion == 'x' ? "0x" : "0X";
                return number(prefix, digits, spec);
            }
            case 'f', 'e', 'E', 'g', 'G' -> {
                double v = Arguments.real(arg);
                boolean negative = v < 0;
                String body = Double.isNaN(v) ? "NaN" : Double.isInfinite(v) ? "Inf" : real(Math.abs(v), conversion, spec);
                if (!Double.isFinite(v)) {
                    spec.zero = false; // no zero padding in front of Inf or NaN
                }
                return number(sign(negative, spec), body, spec);
            }
            case 's', 'z' -> {
                String s = text(arg);
                return pad(spec.precision >= 0 ? prefix(s, spec.precision) : s, spec);
            }
            case 'q', 'Q', 'w' -> {
                if (arg == null) {
                    return pad(conversion == 'Q' ? "NULL" : "(NULL)", spec);
                }
                String s = text(arg);
                if (spec.precision >= 0) {
                    s = prefix(s, spec.precision);
                }
                String quote = conversion == 'w' ? "\"" : "'";
                String escaped = s.replace(quote, quote + quote);
                return pad(conversion == 'Q' ? "'" + escaped + "'" : escaped, spec);
            }
            case 'c' -> {
                String s = text(arg);
                String first = s.isEmpty() ? "" : new String(Character.toChars(s.codePointAt(0)));
                return pad(first.repeat(Math.max(1, spec.precision)), spec);
            }
            default -> {
                return null;
            }
        }
    }

    private static String sign(boolean negative, Spec spec) {
        return negative ? "-" : spec.plus ? "+" : spec.space ? " " : "";
    }

    private static String group(String digits, Spec spec) {
        if (!spec.thousands) {
            return digits;
        }
        StringBuilder b = new StringBuilder();
        for (int k = 0; k < digits.length(); k++) {
            if (k > 0 && (digits.length() - k) % 3 == 0) {
                b.append(',');
            }
            b.append(digits.charAt(k));
        }
        return b.toString();
    }

    /** For integers the precision is the fewest digits shown. */
    private static String withPrecision(String digits, Spec spec) {
        return spec.precision > digits.length() ? "0".repeat(spec.precision - digits.length()) + digits : digits;
    }

    /** A number's sign or prefix, its digits, and zero padding between them when the 0 flag asks. */
    private static String number(String prefix, String digits, Spec spec) {
        int fill = spec.width - prefix.length() - digits.length();
        if (spec.zero && !spec.left && fill > 0) {
            return prefix + "0".repeat(fill) + digits;
        }
        return pad(prefix + digits, spec);
    }

    private static String pad(String s, Spec spec) {
        int fill = spec.width - s.codePointCount(0, s.length());
        if (fill <= 0) {
            return s;
        }
        return spec.left ? s + " ".repeat(fill) : " ".repeat(fill) + s;
    }

    private static String prefix(String s, int characters) {
        int count = s.codePointCount(0, s.length());
        return characters >= count ? s : s.substring(0, s.offsetByCodePoints(0, characters));
    }

    /** A finite, non-negative real in f, e or g notation. */
    private static String real(double v, char conversion, Spec spec) {
        int precision = spec.precision < 0 ? 6 : Math.min(spec.precision, 350);
        BigDecimal exact = new BigDecimal(v);
        switch (conversion) {
            case 'f' -> {
                return fixed(exact, precision, spec.alternate);
            }
            case 'e', 'E' -> {
                String s = scientific(exact, precision, spec.alternate);
                return conversion == 'E' ? s.toUpperCase(java.util.Locale.ROOT) : s;
            }
            default -> {
                int significant = precision == 0 ? 1 : precision;
                BigDecimal rounded = roundSignificant(exact, significant);
                int exponent = exponent(rounded);
                String s = exponent < -4 || exponent >= significant
                        ? scientific(exact, significant - 1, spec.alternate)
                        : fixed(exact, significant - 1 - exponent, spec.alternate);
                if (!spec.alternate) {
                    s = stripZeros(s);
                }
                return conversion == 'G' ? s.toUpperCase(java.util.Locale.ROOT) : s;
            }
        }
    }

    private static String fixed(BigDecimal exact, int decimals, boolean alternate) {
        BigDecimal v = exact;
        if (exact.signum() != 0 && exponent(exact) + 1 + decimals > SIGNIFICANT_DIGITS) {
            v = exact.round(new MathContext(SIGNIFICANT_DIGITS, RoundingMode.HALF_UP));
        }
        String s = v.setScale(decimals, RoundingMode.HALF_UP).toPlainString();
        return alternate && decimals == 0 ? s + "." : s;
    }

    private static String scientific(BigDecimal exact, int decimals, boolean alternate) {
        BigDecimal rounded = roundSignificant(exact, decimals + 1);
        int exponent = exact.signum() == 0 ? 0 : exponent(rounded);
        String digits = exact.signum() == 0 ? "0" : rounded.unscaledValue().abs().toString().replaceAll("0+$", "");
        if (digits.isEmpty()) {
            digits = "0";
        }
        StringBuilder mantissa = new StringBuilder(digits.substring(0, 1));
        if (decimals > 0 || alternate) {
            mantissa.append('.');
        }
        String fraction = digits.substring(1);
        mantissa.append(fraction.length() >= decimals ? fraction.substring(0, decimals) : fraction + "0".repeat(decimals - fraction.length()));
        String e = Integer.toString(Math.abs(exponent));
        return mantissa + "e" + (exponent < 0 ? "-" : "+") + (e.length() < 2 ? "0" + e : e);
    }

    private static BigDecimal roundSignificant(BigDecimal exact, int significant) {
        if (exact.signum() == 0) {
            return exact;
        }
        return exact.round(new MathContext(Math.min(significant, SIGNIFICANT_DIGITS), RoundingMode.HALF_UP));
    }

    /** The decimal exponent of the leading digit: 0 for 1.5, 2 for 123, -3 for 0.001. */
    private static int exponent(BigDecimal v) {
        return v.signum() == 0 ? 0 : v.precision() - v.scale() - 1;
    }

    private static String stripZeros(String s) {
        int e = s.indexOf('e');
        String mantissa = e < 0 ? s : s.substring(0, e);
        String tail = e < 0 ? "" : s.substring(e);
        if (mantissa.contains(".")) {
            mantissa = mantissa.replaceAll("0+$", "");
            if (mantissa.endsWith(".")) {
                mantissa = mantissa.substring(0, mantissa.length() - 1);
            }
        }
        return mantissa + tail;
    }
}
