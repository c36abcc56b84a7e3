package io.derive.engine.plan;

import java.util.List;
import java.util.Set;

/**
 * Whether an expression provably never yields NULL: what an MV's backing column and the declared
 * shape checks of maintained tables derive for a body's outputs.
 */
final class Nullability {
    /** Operators that give NULL only for a NULL operand (division and remainder also give NULL for 0). */
    private static final Set<String> STRICT = Set.of("=", "!=", "<", "<=", ">", ">=", "+", "-", "*", "||", "&", "|",
            "<<", ">>", "~", "neg", "pos", "not", "collate", "cast", "affinity", "like", "glob");
    private static final Set<String> NEVER_NULL = Set.of("isnull", "notnull", "is", "isnot");

    private Nullability() {
    }

    static boolean notNull(BoundExpr e) {
        if (e instanceof BoundExpr.ColumnSlot slot) {
            return slot.notNull();
        }
        if (e instanceof BoundExpr.Constant c) {
            return c.value() != null;
        }
        if (!(e instanceof BoundExpr.Call call)) {
            return false;
        }
        List<BoundExpr> args = call.arguments();
        if (NEVER_NULL.contains(call.operator())) {
            return true;
        }
        if (call.operator().equals("fn")) {
            String name = call.function().name();
            return (name.equals("coalesce") || name.equals("ifnull")) && args.stream().anyMatch(Nullability::notNull);
        }
        return STRICT.contains(call.operator()) && args.stream().allMatch(Nullability::notNull);
    }
}
