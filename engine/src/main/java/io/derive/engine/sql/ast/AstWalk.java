package io.derive.engine.sql.ast;

import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.Predicate;

/**
 * Generic walks over a stored AST (a CHECK condition, a body): every record node of the
 * {@code io.derive} AST, through every record component, subqueries included. Walking the
 * components reflectively, rather than naming each node type, covers expression forms the parser
 * gains later without changes here (as {@link io.derive.engine.schema.ColumnMentions} does).
 */
public final class AstWalk {
    private AstWalk() {
    }

    /** Every node of {@code tree} of the given type, in source order (a node before its children). */
    public static <T> List<T> nodes(Object tree, Class<T> type) {
        List<T> found = new ArrayList<>();
        walk(tree, node -> {
            if (type.isInstance(node)) {
                found.add(type.cast(node));
            }
            return false;
        });
        return found;
    }

    /** Whether some node of {@code tree} satisfies {@code test}. */
    public static boolean any(Object tree, Predicate<Object> test) {
        return walk(tree, test);
    }

    /** Whether the expression holds a subquery ({@code (select …)}, {@code exists}, {@code in (select …)} or {@code in t}). */
    public static boolean hasSubquery(Expr expr) {
        return any(expr, n -> n instanceof Expr.ScalarSubquery || n instanceof Expr.Exists || n instanceof Expr.InQuery);
    }

    /** Visits nodes until {@code stop} answers true; returns whether it did. */
    private static boolean walk(Object tree, Predicate<Object> stop) {
        if (tree instanceof Collection<?> items) {
            for (Object item : items) {
                if (walk(item, stop)) {
                    return true;
                }
            }
            return false;
        }
        if (tree == null || !tree.getClass().isRecord() || !tree.getClass().getPackageName().startsWith("io.derive")) {
            return false;
        }
        if (stop.test(tree)) {
            return true;
        }
        for (RecordComponent component : tree.getClass().getRecordComponents()) {
            try {
                if (walk(component.getAccessor().invoke(tree), stop)) {
                    return true;
                }
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("cannot read " + component + " of " + tree.getClass(), e);
            }
        }
        return false;
    }
}
