package io.derive.engine.schema;

import io.derive.engine.sql.ast.Expr;

/**
 * A {@code CHECK} constraint: a row may be stored only when {@code condition} is not false (NULL
 * passes, as in SQL).
 *
 * @param name      the declared name ({@code constraint ck check (…)}), or null
 * @param condition the expression over the table's row
 * @param sql       the expression's text as written
 */
public record CheckConstraint(String name, Expr condition, String sql) {

    /** How {@code CHECK constraint failed: …} names it: its name, else its expression text. */
    public String label() {
        return name != null ? name : sql;
    }
}
