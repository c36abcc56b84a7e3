package io.derive.engine.schema;

import io.derive.engine.spi.HostedTable;
import io.derive.engine.spi.TableShape;
import io.derive.engine.types.SqlType;

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
 * @param derivation  null for an ordinary table
 * @param constraints CHECK, FOREIGN KEY and the secondary indexes (UNIQUE among them)
 * @param statistics  what the last {@code analyze} of this table found; null when it was never
 *                    analyzed (or was altered since: a reshaped table starts without statistics)
 * @param tags        the table's tags (metadata; a reshape, rename or change of maintenance keeps them)
 */
public record TableSchema(String schema, String name, List<ColumnSchema> columns,
                          List<TableShape.KeyPart> primaryKey, String module, HostedTable storage,
                          Derivation derivation, TableConstraints constraints, TableStatistics statistics,
                          Tags tags) {

    public TableSchema {
        columns = List.copyOf(columns);
        primaryKey = List.copyOf(primaryKey);
        constraints = constraints == null ? TableConstraints.none() : constraints;
        tags = tags == null ? Tags.NONE : tags;
    }

    /** The same table with other constraints and indexes. */
    public TableSchema withConstraints(TableConstraints next) {
        return new TableSchema(schema, name, columns, primaryKey, module, storage, derivation, next, statistics, tags);
    }

    /** The same table with another derivation (null: a plain table again). */
    public TableSchema withDerivation(Derivation next) {
        return new TableSchema(schema, name, columns, primaryKey, module, storage, next, constraints, statistics, tags);
    }

    /** The same table with other tags: nothing else changes, so nothing is rebuilt. */
    public TableSchema withTags(Tags next) {
        return new TableSchema(schema, name, columns, primaryKey, module, storage, derivation, constraints, statistics, next);
    }

    /** The same table with the statistics of an {@code analyze}. */
    public TableSchema withStatistics(TableStatistics next) {
        return new TableSchema(schema, name, columns, primaryKey, module, storage, derivation, constraints, next, tags);
    }

    /**
     * The row count the last {@code analyze} of this table found, as of the transaction that
     * ran it; empty when the table was never analyzed. A planner may use it as an estimate: it is
     * not kept current by later writes.
     */
    public Optional<Long> analyzedRowCount() {
        return statistics == null ? Optional.empty() : Optional.of(statistics.rowCount());
    }

    /** The name of the implicit row identity column of a bag; {@code oid} and {@code _rowid_} are its aliases. */
    public static final String ROWID = "rowid";

    public String qualifiedName() {
        return schema + "." + name;
    }

    /**
     * True when {@code name} is one of SQLite's names for the row identity: {@code rowid},
     * {@code oid}, {@code _rowid_} (compared case-insensitively).
     */
    public static boolean isRowIdName(String name) {
        return name.equalsIgnoreCase(ROWID) || name.equalsIgnoreCase("oid") || name.equalsIgnoreCase("_rowid_");
    }

    /**
     * The column that {@code rowid} (and {@code oid}, {@code _rowid_}) names, unless a declared
     * column of that name shadows it: the hidden row identity of a bag, or, as in SQLite, the
     * single {@code integer} primary-key column. Empty for other tables. An insert that leaves
     * this column NULL gets the next row id (max + 1).
     */
    public Optional<Integer> rowIdColumn() {
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).hidden()) {
                return Optional.of(i);
            }
        }
        if (primaryKey.size() == 1 && columns.get(primaryKey.get(0).column()).type() == SqlType.INTEGER
                && !primaryKey.get(0).descending()) {
            return Optional.of(primaryKey.get(0).column());
        }
        return Optional.empty();
    }

    /** True for a table declared without a primary key: a bag keyed by a hidden {@code rowid}. */
    public boolean isBag() {
        // a loop, not a stream: every write statement asks
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).hidden()) {
                return true;
            }
        }
        return false;
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
