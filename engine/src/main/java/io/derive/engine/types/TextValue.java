package io.derive.engine.types;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.temporal.Temporal;

/**
 * How a non-null value reads as text, as SQLite renders it: integers in decimal, reals in their
 * shortest round-trip digits ({@code 1.0}, {@code 1.0e+20}), booleans as 1/0, blobs as UTF-8,
 * and dates, times and timestamps in ISO-8601 ({@link TemporalValue#render}).
 */
public final class TextValue {
    private TextValue() {
    }

    public static String of(Object v) {
        if (v instanceof String s) {
            return s;
        }
        if (v instanceof byte[] b) {
            return new String(b, StandardCharsets.UTF_8);
        }
        if (v instanceof BigDecimal d) {
            return d.toPlainString();
        }
        if (v instanceof Boolean b) {
            return b ? "1" : "0";
        }
        if (v instanceof Double d) {
            return real(d);
        }
        if (v instanceof Temporal t && TemporalValue.isTemporal(t)) {
            return TemporalValue.render(t);
        }
        return String.valueOf(v);
    }

    /**
     * SQLite's text of a real: plain notation with at least one fractional digit while the
     * decimal exponent is in [-4, 17), else one leading digit and an exponent of two or more digits.
     */
    public static String real(double d) {
        if (Double.isNaN(d)) {
            return "NaN";
        }
        if (Double.isInfinite(d)) {
            return d > 0 ? "Inf" : "-Inf";
        }
        if (d == 0) {
            return "0.0";
        }
        BigDecimal shortest = new BigDecimal(Double.toString(Math.abs(d))).stripTrailingZeros();
        String digits = shortest.unscaledValue().toString();
        int exponent = digits.length() - 1 - shortest.scale();
        String sign = d < 0 ? "-" : "";
        if (exponent >= -4 && exponent < 17) {
            String plain = shortest.toPlainString();
            return sign + (plain.contains(".") ? plain : plain + ".0");
        }
        String mantissa = digits.length() == 1 ? digits + ".0" : digits.charAt(0) + "." + digits.substring(1);
        String e = String.valueOf(Math.abs(exponent));
        return sign + mantissa + "e" + (exponent < 0 ? "-" : "+") + (e.length() < 2 ? "0" + e : e);
    }
}
