package io.derive.engine.plan;

import io.derive.engine.types.Collation;
import io.derive.engine.types.SqlType;

import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * One aggregate computed by an {@link PlanNode.Aggregate} node.
 *
 * @param function  {@code count sum total avg min max group_concat}, or {@code any} for a bare
 *                  column of an aggregate query (SQLite takes the value of some row of the group)
 * @param arguments over the aggregate's input row; empty for {@code count(*)}
 * @param distinct  {@code f(distinct x)}
 */
public record AggregateCall(String function, List<BoundExpr> arguments, boolean distinct, SqlType type,
                            Collation collation) {

    private static final Set<String> NAMES = Set.of("count", "sum", "total", "avg", "min", "max", "group_concat");

    public AggregateCall {
        arguments = List.copyOf(arguments);
    }

    /** Whether a call of this name with this many arguments is an aggregate (min/max with one argument are). */
    public static boolean isAggregate(String name, int arguments, boolean star) {
        String n = name.toLowerCase(Locale.ROOT);
        if (n.equals("min") || n.equals("max")) {
            return arguments == 1;
        }
        return NAMES.contains(n) && (star ? n.equals("count") : true);
    }
}
