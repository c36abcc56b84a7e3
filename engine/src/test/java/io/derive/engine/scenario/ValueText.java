package io.derive.engine.scenario;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * The text form of a result value in a scenario file, shared by the Derive runner and the SQLite
 * check so both compare the same strings. {@code NULL} is null; integers are digits; a real
 * always shows a fraction or an exponent ({@code 2.0}, {@code 0.5}, {@code 1.0E20}); text is
 * written bare unless it is empty, is {@code NULL}, starts or ends with a blank, contains
 * {@code |} or starts with a quote, and then it is single-quoted with quotes doubled (an empty
 * cell also means the empty text); a blob is
 * {@code x'0aff'}; booleans are {@code true}/{@code false}.
 */
public final class ValueText {
    private ValueText() {
    }

    public static String render(Object value) {
        if (value == null) {
            return "NULL";
        }
        if (value instanceof Double d) {
            return renderReal(d);
        }
        if (value instanceof Float f) {
            return renderReal(f.doubleValue());
        }
        if (value instanceof BigDecimal b) {
            return b.toPlainString();
        }
        if (value instanceof byte[] bytes) {
            return "x'" + HexFormat.of().formatHex(bytes) + "'";
        }
        if (value instanceof String s) {
            return renderText(s);
        }
        return String.valueOf(value);
    }

    public static List<String> renderRow(List<?> values) {
        List<String> cells = new ArrayList<>(values.size());
        for (Object v : values) {
            cells.add(render(v));
        }
        return cells;
    }

    private static String renderReal(double d) {
        if (Double.isFinite(d) && d == Math.rint(d) && Math.abs(d) < 1e15) {
            return (long) d + ".0";
        }
        return Double.toString(d);
    }

    private static String renderText(String s) {
        boolean bare = !s.isEmpty() && !s.equals("NULL") && !s.contains("|") && !s.startsWith("'")
                && !Character.isWhitespace(s.charAt(0)) && !Character.isWhitespace(s.charAt(s.length() - 1));
        return bare ? s : "'" + s.replace("'", "''") + "'";
    }

    /** Splits {@code | a | b |} into trimmed cells {@code a}, {@code b}; quoted cells may hold {@code |}. */
    public static List<String> parseCells(String line) {
        List<String> cells = new ArrayList<>();
        String body = line.strip();
        if (!body.startsWith("|") || !body.endsWith("|") || body.length() < 2) {
            throw new IllegalArgumentException("a row line must look like '| a | b |': " + line);
        }
        body = body.substring(1, body.length() - 1);
        StringBuilder cell = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < body.length(); i++) {
            char c = body.charAt(i);
            if (c == '\'' && !quoted && cell.toString().isBlank()) {
                quoted = true;
            } else if (c == '\'' && quoted) {
                if (i + 1 < body.length() && body.charAt(i + 1) == '\'') {
                    cell.append(c);
                    i++;
                } else {
                    quoted = false;
                }
            }
            if (c == '|' && !quoted) {
                cells.add(cell.toString().strip());
                cell.setLength(0);
            } else {
                cell.append(c);
            }
        }
        cells.add(cell.toString().strip());
        cells.replaceAll(c -> c.isEmpty() ? "''" : c);
        return cells;
    }
}
