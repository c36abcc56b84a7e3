package io.derive.engine.schema;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;

/** How a non-null value reads as text, as SQLite renders it: numbers in decimal, booleans as 1/0, blobs as UTF-8. */
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
        return String.valueOf(v);
    }
}
