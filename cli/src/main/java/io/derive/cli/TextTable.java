package io.derive.cli;

import io.derive.engine.api.Result;
import io.derive.engine.api.Row;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * Renders the rows of a {@link Result} as an aligned text table: a header, a rule, one line per
 * row, numbers right-aligned and everything else left-aligned, SQL NULL as {@code NULL} and blobs
 * as {@code X'..'} literals, so what is printed can be pasted back as SQL.
 */
final class TextTable {
    private static final String SEPARATOR = " | ";

    private TextTable() {
    }

    /** The table's lines, without trailing blanks. */
    static List<String> render(Result result) {
        List<String> columns = result.columns();
        List<String[]> cells = new ArrayList<>();
        List<boolean[]> numeric = new ArrayList<>();
        int[] widths = columns.stream().mapToInt(String::length).toArray();
        for (Row row : result.rows()) {
            String[] texts = new String[columns.size()];
            boolean[] right = new boolean[columns.size()];
            for (int i = 0; i < texts.length; i++) {
                Object value = row.get(i);
                texts[i] = format(value);
                right[i] = value instanceof Number;
                widths[i] = Math.max(widths[i], texts[i].length());
            }
            cells.add(texts);
            numeric.add(right);
        }

        List<String> lines = new ArrayList<>();
        lines.add(line(columns.toArray(String[]::new), new boolean[columns.size()], widths));
        StringBuilder rule = new StringBuilder();
        for (int i = 0; i < widths.length; i++) {
            rule.append(i == 0 ? "" : "-+-").append("-".repeat(widths[i]));
        }
        lines.add(rule.toString());
        for (int r = 0; r < cells.size(); r++) {
            lines.add(line(cells.get(r), numeric.get(r), widths));
        }
        return lines;
    }

    private static String line(String[] texts, boolean[] rightAligned, int[] widths) {
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < texts.length; i++) {
            String padding = " ".repeat(widths[i] - texts[i].length());
            line.append(i == 0 ? "" : SEPARATOR);
            line.append(rightAligned[i] ? padding + texts[i] : texts[i] + padding);
        }
        return line.toString().stripTrailing();
    }

    static String format(Object value) {
        if (value == null) {
            return "NULL";
        }
        if (value instanceof byte[]) {
            return "X'" + HexFormat.of().withUpperCase().formatHex((byte[]) value) + "'";
        }
        if (value instanceof BigDecimal) {
            return ((BigDecimal) value).toPlainString();
        }
        return value.toString();
    }
}
