package io.derive.engine.schema;

import io.derive.engine.spi.HostedTable;
import io.derive.engine.spi.TableShape;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A table in the catalog: ordinary or maintained (a materialized view is a maintained table,
 * MV-009). Immutable; DDL replaces it in a new {@link Catalog}.
 *
 * @param primaryKey the physical key, as column positions with directions
 * @param module     the name of the table module that hosts it
 * @param storage    the host's incarnation of this table
 * @param derivation null for an ordinary table
 */
public record TableSchema(String schema, String name, List<ColumnSchema> columns,
                          List<TableShape.KeyPart> primaryKey, String module, HostedTable storage,
                          Derivation derivation) {

    public TableSchema {
        columns = List.copyOf(columns);
        primaryKey = List.copyOf(primaryKey);
    }

    public String qualifiedName() {
        return schema + "." + name;
    }

    /** The catalog key of this table: lower-cased qualified name. */
    public String key() {
        return Catalog.key(schema, name);
    }

    public boolean isMaintained() {
        return derivation != null;
    }

    /** The position of a column, compared case-insensitively. */
    public Optional<Integer> columnIndex(String column) {
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).name().equalsIgnoreCase(column)) {
                return Optional.of(i);
            }
        }
        return Optional.empty();
    }

    public List<String> columnNames() {
        return columns.stream().map(ColumnSchema::name).toList();
    }

    /** What the host is told about this table. */
    public static TableShape shape(String schema, String name, List<ColumnSchema> columns,
                                   List<TableShape.KeyPart> primaryKey) {
        List<TableShape.Column> shapeColumns = new ArrayList<>(columns.size());
        for (ColumnSchema c : columns) {
            shapeColumns.add(new TableShape.Column(c.name(), c.type(), c.collation(), c.notNull()));
        }
        return new TableShape(schema, name, shapeColumns, primaryKey);
    }

    /** {@code t.x}, as constraint messages name a column. */
    public String columnLabel(int column) {
        return name + "." + columns.get(column).name();
    }

    public String kindName() {
        return isMaintained() ? "materialized view" : "table";
    }

    @Override
    public String toString() {
        return qualifiedName().toLowerCase(Locale.ROOT);
    }
}
