package io.derive.engine.exec.query;

import io.derive.engine.plan.AggregateCall;
import io.derive.engine.plan.BoundExpr;
import io.derive.engine.plan.PlanNode;
import io.derive.engine.spi.GroupedAggregate;
import io.derive.engine.txn.Transaction;
import io.derive.engine.types.SqlType;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Offers an aggregate over a whole table to the table's host ({@link
 * io.derive.engine.spi.TableConnection#aggregate}), where the plan has the one shape that names:
 * groups of {@code integer} columns of a full table scan, and {@code count}, or {@code sum},
 * {@code min}, {@code max} of an {@code integer} column, none of them {@code distinct}. A host
 * that groups rows where they lie (Derby) then saves reading every row; the engine's
 * {@link Aggregation} evaluates whatever the host declines.
 */
final class HostAggregation {
    private HostAggregation() {
    }

    /** The rows of {@code node} as its table's host computed them, in key order; empty when not offered or declined. */
    static Optional<List<Object[]>> offer(PlanNode.Aggregate node, Transaction transaction) {
        if (!(node.input() instanceof PlanNode.TableScan scan) || !scan.keyPrefix().isEmpty() || scan.isRange()) {
            return Optional.empty();
        }
        return grouped(node).flatMap(aggregate -> transaction.connection(scan.table()).aggregate(aggregate))
                .map(rows -> Aggregation.inKeyOrder(new ArrayList<>(rows), node));
    }

    private static Optional<GroupedAggregate> grouped(PlanNode.Aggregate node) {
        List<Integer> groups = new ArrayList<>();
        for (BoundExpr key : node.groupKeys()) {
            if (!(key instanceof BoundExpr.ColumnSlot slot) || slot.type() != SqlType.INTEGER) {
                return Optional.empty();
            }
            groups.add(slot.index());
        }
        List<GroupedAggregate.Call> calls = new ArrayList<>();
        for (AggregateCall call : node.aggregates()) {
            Optional<GroupedAggregate.Call> offered = call(call);
            if (offered.isEmpty()) {
                return Optional.empty();
            }
            calls.add(offered.get());
        }
        return Optional.of(new GroupedAggregate(groups, calls));
    }

    private static Optional<GroupedAggregate.Call> call(AggregateCall call) {
        if (call.distinct()) {
            return Optional.empty();
        }
        if (call.function().equals("count") && call.arguments().isEmpty()) {
            return Optional.of(new GroupedAggregate.Call(GroupedAggregate.Function.COUNT_ROWS, -1));
        }
        if (call.arguments().size() != 1 || !(call.arguments().get(0) instanceof BoundExpr.ColumnSlot slot)) {
            return Optional.empty();
        }
        GroupedAggregate.Function function = switch (call.function()) {
            case "count" -> GroupedAggregate.Function.COUNT;
            case "sum" -> GroupedAggregate.Function.SUM;
            case "min" -> GroupedAggregate.Function.MIN;
            case "max" -> GroupedAggregate.Function.MAX;
            default -> null;
        };
        if (function == null || (function != GroupedAggregate.Function.COUNT && slot.type() != SqlType.INTEGER)) {
            return Optional.empty();
        }
        return Optional.of(new GroupedAggregate.Call(function, slot.index()));
    }
}
