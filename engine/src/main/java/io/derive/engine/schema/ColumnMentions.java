package io.derive.engine.schema;

import io.derive.engine.sql.ast.Expr;

import java.lang.reflect.RecordComponent;
import java.util.Collection;

/**
 * Whether a stored expression (a CHECK condition, a partial index's predicate) names a column.
 * It walks the AST generically, through every record component, so expression forms added to
 * the parser later are covered without changes here; a subquery's own columns count too, which
 * errs on the side of refusing an alter.
 */
public final class ColumnMentions {
    private ColumnMentions() {
    }

    /** True when {@code tree} contains a reference to {@code column} (case-insensitively). */
    public static boolean mentions(Object tree, String column) {
        if (tree instanceof Expr.ColumnRef ref) {
            return ref.column().equalsIgnoreCase(column);
        }
        if (tree instanceof Collection<?> items) {
            for (Object item : items) {
                if (mentions(item, column)) {
                    return true;
                }
            }
            return false;
        }
        if (tree == null || !tree.getClass().isRecord() || !tree.getClass().getPackageName().startsWith("io.derive")) {
            return false;
        }
        for (RecordComponent component : tree.getClass().getRecordComponents()) {
            try {
                if (mentions(component.getAccessor().invoke(tree), column)) {
                    return true;
                }
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("cannot read " + component + " of " + tree.getClass(), e);
            }
        }
        return false;
    }
}
