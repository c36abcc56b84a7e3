package io.derive.engine.schema;

import io.derive.engine.sql.ast.AstWalk;
import io.derive.engine.sql.ast.Expr;

/**
 * A {@code CHECK} constraint: a row may be stored only when {@code condition} is not false (NULL
 * passes, as in SQL). A condition that holds a subquery reads other rows, so it is checked
 * against the transaction's final state, at commit (semantics §6); any other is checked on the
 * row as it is written.
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

    /** Whether the condition holds a subquery (found by walking it: callers compile once and keep the answer). */
    public boolean readsTables() {
        return AstWalk.hasSubquery(condition);
    }
}
