package io.derive.engine.schema;

import io.derive.engine.sql.ast.Statement.ConflictAction;
import io.derive.engine.types.Collation;
import io.derive.engine.types.SqlType;

/**
 * A table column as the catalog knows it.
 *
 * @param defaultValue   the constant stored when an insert gives no value; null means NULL
 * @param hidden         true for the implicit {@code rowid} of a table without a primary key: it is
 *                       stored and selectable by name, but {@code select *}, an insert without a
 *                       column list and {@code table_info} leave it out
 * @param dynamicDefault a default evaluated at each write ({@code default current_timestamp}), or
 *                       null; it wins over {@code defaultValue}
 * @param notNullConflict the {@code on conflict …} of its NOT NULL: how a NULL written to it is
 *                        resolved when the statement says no {@code or …}; null for abort (and
 *                        for a nullable column)
 */
public record ColumnSchema(String name, SqlType type, Collation collation, boolean notNull, Object defaultValue,
                           boolean hidden, DynamicDefault dynamicDefault, ConflictAction notNullConflict) {

    /** A default whose value depends on when it is taken: its text, and how to evaluate it now. */
    public record DynamicDefault(String sql, java.util.function.Supplier<Object> evaluator) {
    }

    public ColumnSchema {
        notNullConflict = notNull ? notNullConflict : null;
    }

    /** A column whose NOT NULL, if any, aborts. */
    public ColumnSchema(String name, SqlType type, Collation collation, boolean notNull, Object defaultValue,
                        boolean hidden, DynamicDefault dynamicDefault) {
        this(name, type, collation, notNull, defaultValue, hidden, dynamicDefault, null);
    }

    /** A column without a dynamic default. */
    public ColumnSchema(String name, SqlType type, Collation collation, boolean notNull, Object defaultValue,
                        boolean hidden) {
        this(name, type, collation, notNull, defaultValue, hidden, null);
    }

    /** A visible column. */
    public ColumnSchema(String name, SqlType type, Collation collation, boolean notNull, Object defaultValue) {
        this(name, type, collation, notNull, defaultValue, false, null);
    }

    /** The value a write stores when it gives none: the dynamic default evaluated now, else the constant. */
    public Object currentDefault() {
        return dynamicDefault != null ? dynamicDefault.evaluator().get() : defaultValue;
    }

    /**
     * The same column with other type, collation or nullability, keeping its defaults and, while
     * it stays NOT NULL, that constraint's conflict resolution.
     */
    public ColumnSchema with(SqlType newType, Collation newCollation, boolean newNotNull, Object newDefault) {
        return new ColumnSchema(name, newType, newCollation, newNotNull, newDefault, hidden, dynamicDefault,
                notNullConflict);
    }

    /** The same column under another name. */
    public ColumnSchema renamed(String newName) {
        return new ColumnSchema(newName, type, collation, notNull, defaultValue, hidden, dynamicDefault, notNullConflict);
    }
}
