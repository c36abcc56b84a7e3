package io.derive.derby.crash;

import io.derive.engine.api.Result;
import io.derive.engine.api.Row;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Rows as a multiset: a materialized view is compared with its body without regard to order, and
 * a difference is described by the rows one side has more often than the other.
 */
final class RowBag {
    /** How many differing rows a description names before it summarises the rest. */
    private static final int SHOWN = 8;

    private final Map<List<Object>, Integer> counts = new HashMap<>();
    private int size;

    private RowBag() {
    }

    static RowBag of(Collection<List<Object>> rows) {
        RowBag bag = new RowBag();
        rows.forEach(bag::add);
        return bag;
    }

    static RowBag of(Result result) {
        RowBag bag = new RowBag();
        for (Row row : result.rows()) {
            bag.add(row.values());
        }
        return bag;
    }

    private void add(List<Object> row) {
        counts.merge(new ArrayList<>(row), 1, Integer::sum);
        size++;
    }

    int size() {
        return size;
    }

    /**
     * Null when both bags hold the same rows equally often; otherwise what {@code actual} lacks and
     * what it has in excess, compared with this (the expected) bag.
     */
    String differenceFrom(RowBag actual) {
        List<String> missing = surplus(this, actual);
        List<String> unexpected = surplus(actual, this);
        if (missing.isEmpty() && unexpected.isEmpty()) {
            return null;
        }
        return "expected " + size + " rows, found " + actual.size + "; missing " + shown(missing)
                + "; unexpected " + shown(unexpected);
    }

    private static List<String> surplus(RowBag from, RowBag other) {
        List<String> rows = new ArrayList<>();
        from.counts.forEach((row, n) -> {
            int extra = n - other.counts.getOrDefault(row, 0);
            if (extra > 0) {
                rows.add(row + (extra > 1 ? " x" + extra : ""));
            }
        });
        rows.sort(null);
        return rows;
    }

    private static String shown(List<String> rows) {
        if (rows.isEmpty()) {
            return "none";
        }
        List<String> head = rows.subList(0, Math.min(SHOWN, rows.size()));
        return head + (rows.size() > SHOWN ? " and " + (rows.size() - SHOWN) + " more" : "");
    }
}
