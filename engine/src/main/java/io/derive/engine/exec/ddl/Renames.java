package io.derive.engine.exec.ddl;

import io.derive.engine.plan.ColumnOrigin;
import io.derive.engine.schema.Catalog;
import io.derive.engine.schema.TableSchema;

import java.util.HashMap;
import java.util.Map;

/**
 * What one {@code alter table … rename} renames, in the terms of the catalog before it (the one
 * the bodies to rewrite are bound against): a stored table under a new name, or stored columns
 * under new names. It grows while the rename is carried through the bodies: a materialized
 * view's column that publishes a renamed column's name follows it, and is then renamed for the
 * bodies that read the view in turn (semantics §5).
 */
final class Renames {
    private final String tableKey;
    private final String newTableName;
    private final String newTableKey;
    /** New names of stored columns, by their origin in the catalog before the rename. */
    private final Map<ColumnOrigin, String> columns = new HashMap<>();

    private Renames(TableSchema table, String newTableName) {
        this.tableKey = newTableName == null ? null : table.key();
        this.newTableName = newTableName;
        this.newTableKey = newTableName == null ? null : Catalog.key(table.schema(), newTableName);
    }

    /** {@code table} renamed to {@code newName}. */
    static Renames table(TableSchema table, String newName) {
        return new Renames(table, newName);
    }

    /** Column {@code column} of {@code table} renamed to {@code newName}. */
    static Renames column(TableSchema table, int column, String newName) {
        Renames renames = new Renames(table, null);
        renames.follow(new ColumnOrigin(table.key(), column), newName);
        return renames;
    }

    /** The new name of the stored table with catalog key {@code key}; null when it keeps its name. */
    String newTableName(String key) {
        return key.equals(tableKey) ? newTableName : null;
    }

    /** The catalog key after the rename of the table whose key was {@code key}. */
    String newKey(String key) {
        return key.equals(tableKey) ? newTableKey : key;
    }

    /** The new name of the stored column {@code origin} names; null when it keeps its name. */
    String newColumnName(ColumnOrigin origin) {
        return origin == null ? null : columns.get(origin);
    }

    /** Renames one more stored column: one of a maintained table that followed the rename. */
    void follow(ColumnOrigin origin, String newName) {
        columns.put(origin, newName);
    }
}
