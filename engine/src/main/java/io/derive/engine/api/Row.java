package io.derive.engine.api;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * One row of a {@link Result}: values in select-list order, also reachable by column name
 * (case-insensitive, first match wins).
 *
 * <p>Values are Java objects by SQL type: {@code integer} → {@link Long}, {@code real} →
 * {@link Double}, {@code text} → {@link String}, {@code blob} → {@code byte[]}, {@code boolean} →
 * {@link Boolean}, {@code numeric} → {@link java.math.BigDecimal}; SQL NULL is {@code null}.
 */
public final class Row {
    private final List<String> columns;
    private final Object[] values;

    public Row(List<String> columns, Object[] values) {
        if (columns.size() != values.length) {
            throw new IllegalArgumentException("row has " + values.length + " values for " + columns.size() + " columns");
        }
        this.columns = columns;
        this.values = values;
    }

    public int size() {
        return values.length;
    }

    /** The value at a 0-based position; throws {@link DeriveException} outside the row. */
    public Object get(int index) {
        if (index < 0 || index >= values.length) {
            throw new DeriveException(DeriveException.UNDEFINED_OBJECT,
                    "no column at index " + index + " (the row has " + values.length + ")");
        }
        return values[index];
    }

    /** The value of the named column; throws {@link DeriveException} naming an unknown column. */
    public Object get(String column) {
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).equalsIgnoreCase(column)) {
                return values[i];
            }
        }
        throw new DeriveException(DeriveException.UNDEFINED_OBJECT, "no such column: " + column);
    }

    public List<String> columns() {
        return columns;
    }

    /** The values in column order, as an unmodifiable list (it may contain nulls). */
    public List<Object> values() {
        return Collections.unmodifiableList(Arrays.asList(values));
    }

    @Override
    public String toString() {
        return Arrays.deepToString(values);
    }
}
