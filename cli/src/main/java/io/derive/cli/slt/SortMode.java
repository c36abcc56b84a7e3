package io.derive.cli.slt;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** How a query's formatted values are ordered before they are compared. */
enum SortMode {
    /** In the order the engine returned them. */
    NOSORT,
    /** Rows sorted by their values, compared as text from the first column on. */
    ROWSORT,
    /** Every value sorted on its own, regardless of rows. */
    VALUESORT;

    static SortMode named(String name) {
        return switch (name) {
            case "nosort" -> NOSORT;
            case "rowsort" -> ROWSORT;
            case "valuesort" -> VALUESORT;
            default -> null;
        };
    }

    /** The values of {@code rows}, one list of formatted values per row, in this order. */
    List<String> flatten(List<List<String>> rows) {
        List<List<String>> ordered = new ArrayList<>(rows);
        if (this == ROWSORT) {
            ordered.sort(SortMode::compareRows);
        }
        List<String> values = new ArrayList<>();
        ordered.forEach(values::addAll);
        if (this == VALUESORT) {
            values.sort(Comparator.naturalOrder());
        }
        return values;
    }

    private static int compareRows(List<String> a, List<String> b) {
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
            int c = a.get(i).compareTo(b.get(i));
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(a.size(), b.size());
    }
}
