package io.derive.engine.schema;

import io.derive.engine.sql.ast.Expr;
import io.derive.engine.sql.ast.Statement.ConflictAction;
import io.derive.engine.types.Collation;

import java.util.List;

/**
 * A secondary index of a table: declared by {@code create [unique] index}, or made by the engine
 * to enforce a {@code UNIQUE} constraint (then {@code constraint} is true and {@code drop index}
 * refuses it). The host keeps its entries; a unique index is how PRIMARY-KEY-like uniqueness of
 * other columns is checked, with NULLs distinct, as in SQLite.
 *
 * @param name       the index name, unique within the schema, compared case-insensitively
 * @param columns    the indexed columns in order
 * @param unique     whether two rows the index holds may not share a key without NULLs
 * @param where      for a partial index, the predicate over the table's row; null otherwise
 * @param constraint true when the index carries a UNIQUE constraint of the table definition
 * @param sql        the canonical DDL ({@code create unique index …}); for a constraint index,
 *                   the constraint's text
 * @param conflict   for a UNIQUE constraint, its {@code on conflict …}: how a collision is
 *                   resolved when the statement says no {@code or …}; null for abort
 */
public record IndexSchema(String name, List<IndexColumn> columns, boolean unique, Expr where,
                          boolean constraint, String sql, ConflictAction conflict) {

    /** One indexed column: its position in the row, collation and direction. */
    public record IndexColumn(int column, Collation collation, boolean descending) {
    }

    public IndexSchema {
        columns = List.copyOf(columns);
    }

    /** An index whose collisions abort. */
    public IndexSchema(String name, List<IndexColumn> columns, boolean unique, Expr where, boolean constraint,
                       String sql) {
        this(name, columns, unique, where, constraint, sql, null);
    }

    /** The same index over other column positions (a column before them was dropped). */
    public IndexSchema withColumns(List<IndexColumn> next) {
        return new IndexSchema(name, next, unique, where, constraint, sql, conflict);
    }
}
