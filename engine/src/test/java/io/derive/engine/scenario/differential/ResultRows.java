package io.derive.engine.scenario.differential;

import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * Query results brought to one form for comparison: integers as {@link Long}, reals as
 * {@link Double} (booleans as 0/1, as SQLite has them). Bags are compared after sorting; reals
 * compare with a relative tolerance. {@code byValue} compares numbers by value only, which is how
 * Derby (whose types differ from SQLite's) is compared.
 */
public final class ResultRows {
    private static final double TOLERANCE = 1e-9;

    private ResultRows() {
    }

    public static List<List<Object>> of(ResultSet rs) throws SQLException {
        List<List<Object>> rows = new ArrayList<>();
        int n = rs.getMetaData().getColumnCount();
        while (rs.next()) {
            List<Object> row = new ArrayList<>(n);
            for (int i = 1; i <= n; i++) {
                row.add(normalize(rs.getObject(i)));
            }
            rows.add(row);
        }
        return rows;
    }

    public static List<List<Object>> of(List<List<Object>> values) {
        List<List<Object>> rows = new ArrayList<>();
        for (List<Object> row : values) {
            List<Object> normalized = new ArrayList<>(row.size());
            for (Object v : row) {
                normalized.add(normalize(v));
            }
            rows.add(normalized);
        }
        return rows;
    }

    static Object normalize(Object v) {
        if (v instanceof Integer || v instanceof Short || v instanceof Byte) {
            return ((Number) v).longValue();
        }
        if (v instanceof Float f) {
            return f.doubleValue();
        }
        if (v instanceof BigDecimal b) {
            return b.doubleValue();
        }
        if (v instanceof Boolean b) {
            return b ? 1L : 0L;
        }
        return v;
    }

    /** True when both hold the same rows: as lists if {@code ordered}, else as bags. */
    public static boolean same(List<List<Object>> expected, List<List<Object>> actual, boolean ordered, boolean byValue) {
        if (expected.size() != actual.size()) {
            return false;
        }
        List<List<Object>> e = ordered ? expected : sorted(expected);
        List<List<Object>> a = ordered ? actual : sorted(actual);
        for (int i = 0; i < e.size(); i++) {
            if (!sameRow(e.get(i), a.get(i), byValue)) {
                return false;
            }
        }
        return true;
    }

    private static boolean sameRow(List<Object> e, List<Object> a, boolean byValue) {
        if (e.size() != a.size()) {
            return false;
        }
        for (int i = 0; i < e.size(); i++) {
            if (!sameValue(e.get(i), a.get(i), byValue)) {
                return false;
            }
        }
        return true;
    }

    private static boolean sameValue(Object e, Object a, boolean byValue) {
        if (e == null || a == null) {
            return e == a;
        }
        if (e instanceof Double || a instanceof Double) {
            if (!(e instanceof Number en) || !(a instanceof Number an)) {
                return false;
            }
            if (!byValue && e.getClass() != a.getClass()) {
                return false;
            }
            double x = en.doubleValue();
            double y = an.doubleValue();
            return x == y || Math.abs(x - y) <= TOLERANCE * Math.max(Math.abs(x), Math.abs(y));
        }
        if (e instanceof byte[] eb && a instanceof byte[] ab) {
            return java.util.Arrays.equals(eb, ab);
        }
        return e.equals(a);
    }

    private static List<List<Object>> sorted(List<List<Object>> rows) {
        List<List<Object>> copy = new ArrayList<>(rows);
        copy.sort(Comparator.comparing(ResultRows::sortKey));
        return copy;
    }

    /** Sorting key for bag comparison; numbers by value with reals rounded, so tolerance survives. */
    private static String sortKey(List<Object> row) {
        StringBuilder key = new StringBuilder();
        for (Object v : row) {
            if (v == null) {
                key.append("\u0000N");
            } else if (v instanceof Number n) {
                // Adding 0.0 turns -0.0 into 0.0: they are equal values and must sort together.
                key.append("\u0001").append(String.format(Locale.ROOT, "%+025.6f", n.doubleValue() + 0.0));
            } else {
                key.append("\u0002").append(v);
            }
            key.append('\u0003');
        }
        return key.toString();
    }

    public static String show(List<List<Object>> rows) {
        if (rows.size() > 30) {
            return rows.subList(0, 30) + " … (" + rows.size() + " rows)";
        }
        return rows.toString();
    }
}
