package io.derive.engine.plan;

import io.derive.engine.sql.ast.Select;

/**
 * A bound {@code from} clause before join planning: its sources, how they are joined, and the
 * names they make visible. Rows of a relation are its sources' columns in written order.
 */
sealed interface Relation {

    Scope scope();

    /** One source: a table scan, a derived table, a table function, a common table. */
    record Leaf(PlanNode plan, Scope scope, double estimatedRows) implements Relation {
    }

    /** {@code condition} is bound over the combined row of left and right; null when none. */
    record Join(Select.JoinKind kind, Relation left, Relation right, BoundExpr condition, Scope scope)
            implements Relation {
    }

    /**
     * A right side that reads the left row (a lateral table function or subquery);
     * {@code condition} (over the combined row, null when none) filters an inner apply.
     */
    record Apply(Relation left, PlanNode right, boolean outer, BoundExpr condition, Scope scope) implements Relation {
    }
}
