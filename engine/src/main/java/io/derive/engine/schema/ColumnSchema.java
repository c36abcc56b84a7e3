package io.derive.engine.schema;

/**
 * A table column as the catalog knows it.
 *
 * @param defaultValue the constant stored when an insert gives no value; null means NULL
 */
public record ColumnSchema(String name, SqlType type, Collation collation, boolean notNull, Object defaultValue) {
}
