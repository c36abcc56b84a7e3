package io.derive.engine.plan;

import java.util.ArrayList;
import java.util.List;

/**
 * Collects the aggregate calls of an aggregate query while its expressions are bound, and then
 * rewrites those expressions to read the output row of the {@link PlanNode.Aggregate} node:
 * group keys first, then one column per aggregate.
 */
final class AggregateCollector {
    private final List<BoundExpr> groupKeys;
    private final List<AggregateCall> calls = new ArrayList<>();

    AggregateCollector(List<BoundExpr> groupKeys) {
        this.groupKeys = List.copyOf(groupKeys);
    }

    /** Registers a call; the placeholder it returns is resolved by {@link #rewrite}. */
    BoundExpr add(AggregateCall call) {
        int index = calls.indexOf(call);
        if (index < 0) {
            calls.add(call);
            index = calls.size() - 1;
        }
        return new BoundExpr.Call("aggregate#" + index, null, List.of(), call.type(), call.collation(), true);
    }

    boolean isEmpty() {
        return calls.isEmpty();
    }

    List<AggregateCall> calls() {
        return calls;
    }

    List<BoundExpr> groupKeys() {
        return groupKeys;
    }

    /**
     * The expression over the aggregate's output row: a group key becomes its slot, an aggregate
     * placeholder the aggregate's slot, and an input column that is not a group key takes the
     * value of some row of the group (SQLite's bare-column rule) through an {@code any} aggregate.
     */
    BoundExpr rewrite(BoundExpr e) {
        int key = groupKeys.indexOf(e);
        if (key >= 0) {
            return new BoundExpr.ColumnSlot(key, "group" + key, e.type(), e.collation(), false);
        }
        if (e instanceof BoundExpr.Call c && c.operator().startsWith("aggregate#")) {
            int index = Integer.parseInt(c.operator().substring("aggregate#".length()));
            return new BoundExpr.ColumnSlot(groupKeys.size() + index, "aggregate" + index, c.type(), c.collation(), false);
        }
        if (e instanceof BoundExpr.ColumnSlot slot) {
            BoundExpr any = add(new AggregateCall("any", List.of(slot), false, slot.type(), slot.collation()));
            return rewrite(any);
        }
        if (e instanceof BoundExpr.Call c) {
            List<BoundExpr> args = new ArrayList<>();
            for (BoundExpr a : c.arguments()) {
                args.add(rewrite(a));
            }
            return new BoundExpr.Call(c.operator(), c.function(), args, c.type(), c.collation(), c.deterministic());
        }
        if (e instanceof BoundExpr.Subquery q && PlanAnalysis.readsOuterRows(q.plan())) {
            throw new io.derive.engine.api.DeriveException(io.derive.engine.api.DeriveException.FEATURE_NOT_SUPPORTED,
                    "a correlated subquery in an aggregate query's result is not supported yet");
        }
        if (e instanceof BoundExpr.Subquery q && q.operand() != null) {
            return new BoundExpr.Subquery(q.kind(), q.plan(), rewrite(q.operand()), q.type(), q.collation(), q.deterministic());
        }
        return e;
    }
}
