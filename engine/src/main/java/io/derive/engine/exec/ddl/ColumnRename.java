package io.derive.engine.exec.ddl;

import io.derive.engine.schema.Catalog;
import io.derive.engine.schema.CheckConstraint;
import io.derive.engine.schema.ColumnMentions;
import io.derive.engine.schema.ColumnSchema;
import io.derive.engine.schema.ForeignKey;
import io.derive.engine.schema.IndexSchema;
import io.derive.engine.schema.TableSchema;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Renaming one column of a stored table, a user's {@code rename column} or a materialized view's
 * column following a rename of the column it publishes: what must refuse it, and the renamed
 * definition. The constraints keep their own text (a CHECK's condition, a partial index's
 * {@code where}), which is not rewritten, so a column they name cannot be renamed yet.
 */
final class ColumnRename {
    private ColumnRename() {
    }

    /**
     * Why column {@code column} of {@code table} cannot be renamed: a CHECK or an index of the
     * table uses it, or a foreign key of a table of {@code catalog} references it; empty when
     * nothing does.
     */
    static Optional<String> refusal(Catalog catalog, TableSchema table, int column) {
        String name = table.columns().get(column).name();
        for (CheckConstraint check : table.constraints().checks()) {
            if (ColumnMentions.mentions(check.condition(), name)) {
                return Optional.of("CHECK constraint '" + check.label() + "' uses it (renaming a column named in a"
                        + " CHECK is not supported yet)");
            }
        }
        for (IndexSchema index : table.constraints().indexes()) {
            if (index.columns().stream().anyMatch(c -> c.column() == column) || ColumnMentions.mentions(index.where(), name)) {
                return Optional.of("index '" + index.name() + "' uses it (drop the index first)");
            }
        }
        for (TableSchema child : catalog.tables()) {
            for (ForeignKey fk : child.constraints().foreignKeys()) {
                if (AlterTableExecutor.references(fk, child, table)
                        && fk.parentColumns().stream().anyMatch(name::equalsIgnoreCase)) {
                    return Optional.of("a FOREIGN KEY of table '" + child.name() + "' references it");
                }
            }
        }
        return Optional.empty();
    }

    /** {@code table} with column {@code column} named {@code newName}, on the same storage. */
    static TableSchema renamed(TableSchema table, int column, String newName) {
        List<ColumnSchema> columns = new ArrayList<>(table.columns());
        ColumnSchema c = columns.get(column);
        columns.set(column, c.renamed(newName));
        return new TableSchema(table.schema(), table.name(), columns, table.primaryKey(), table.module(),
                table.storage(), table.derivation(), table.constraints(), null, table.tags());
    }
}
