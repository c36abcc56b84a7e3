package io.derive.engine.plan;

/**
 * The stored column whose name an output column carries: a table's own column, or a column
 * passed through by name (an unaliased column reference, a {@code *}) by the derived tables,
 * common tables, views and compound members in between. An output named otherwise (an alias, a
 * column list, an expression's text) has no origin: its name does not follow a rename of the
 * stored column.
 *
 * @param table  the catalog key of the stored table ({@link io.derive.engine.schema.TableSchema#key()})
 * @param column the column's position in that table
 */
public record ColumnOrigin(String table, int column) {
}
