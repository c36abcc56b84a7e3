package io.derive.engine.scenario;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** Compares rendered rows as a list or as a bag, and prints them as a table for failure messages. */
public final class RowComparison {
    private static final Comparator<List<String>> ROW_ORDER = (a, b) -> String.join("\u0000", a)
            .compareTo(String.join("\u0000", b));

    private RowComparison() {
    }

    public static boolean matches(Expectation.Rows expected, List<List<String>> actual) {
        if (expected.ordered()) {
            return expected.rows().equals(actual);
        }
        return sorted(expected.rows()).equals(sorted(actual));
    }

    private static List<List<String>> sorted(List<List<String>> rows) {
        List<List<String>> copy = new ArrayList<>(rows);
        copy.sort(ROW_ORDER);
        return copy;
    }

    public static String table(List<List<String>> rows) {
        if (rows.isEmpty()) {
            return "(no rows)";
        }
        StringBuilder out = new StringBuilder();
        for (List<String> row : rows) {
            out.append("  | ").append(String.join(" | ", row)).append(" |\n");
        }
        return out.toString();
    }
}
