package io.derive.engine.mvtest;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * Rows as a comparable bag: each row becomes one canonical text (integers of any width alike,
 * reals to 12 significant digits, {@code group_concat} columns with their elements sorted) and
 * the texts are sorted, so two results are equal as bags exactly when their canonical lists are.
 */
public final class BagRows {

    private BagRows() {
    }

    public static List<String> of(List<List<Object>> rows, Set<Integer> listColumns) {
        List<String> out = new ArrayList<>(rows.size());
        for (List<Object> row : rows) {
            StringBuilder text = new StringBuilder();
            for (int i = 0; i < row.size(); i++) {
                text.append(i == 0 ? "" : " | ").append(value(row.get(i), listColumns.contains(i)));
            }
            out.add(text.toString());
        }
        out.sort(null);
        return out;
    }

    private static String value(Object v, boolean list) {
        if (v == null) {
            return "NULL";
        }
        if (v instanceof Integer || v instanceof Long || v instanceof Short) {
            return "i" + ((Number) v).longValue();
        }
        if (v instanceof Double || v instanceof Float || v instanceof BigDecimal) {
            double d = ((Number) v).doubleValue();
            return "r" + (d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : String.format("%.12g", d));
        }
        if (list && v instanceof String s) {
            String[] parts = s.split(",", -1);
            Arrays.sort(parts);
            return "l" + String.join(",", parts);
        }
        return "t" + v;
    }
}
