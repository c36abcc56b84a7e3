package io.derive.engine.schema;

/**
 * A table column as the catalog knows it.
 *
 * @param defaultValue the constant stored when an insert gives no value; null means NULL
 * @param hidden       true for the implicit {@code rowid} of a table without a primary key: it is
 *                     stored and selectable by name, but {@code select *}, an insert without a
 *                     column list and {@code table_info} leave it out
 */
public record ColumnSchema(String name, SqlType type, Collation collation, boolean notNull, Object defaultValue,
                           boolean hidden) {

    /** A visible column. */
    public ColumnSchema(String name, SqlType type, Collation collation, boolean notNull, Object defaultValue) {
        this(name, type, collation, notNull, defaultValue, false);
    }
}
