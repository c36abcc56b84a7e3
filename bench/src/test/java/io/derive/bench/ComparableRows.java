package io.derive.bench;

import io.derive.engine.api.Result;
import io.derive.engine.api.Row;

import java.util.List;

/**
 * Rows of either side in one form, so that a Derive result and a Derby one can be compared:
 * every integral number as a {@link Long} (Derby's {@code count(*)} is an {@code int}).
 */
final class ComparableRows {
    private ComparableRows() {
    }

    static List<List<Object>> of(Result derive) {
        return of(derive.rows().stream().map(Row::values).toList());
    }

    static List<List<Object>> of(List<List<Object>> rows) {
        return rows.stream().map(row -> row.stream().map(ComparableRows::value).toList()).toList();
    }

    private static Object value(Object value) {
        if (value instanceof Integer || value instanceof Short) {
            return ((Number) value).longValue();
        }
        return value;
    }
}
