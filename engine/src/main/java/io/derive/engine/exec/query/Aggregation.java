package io.derive.engine.exec.query;

import io.derive.engine.exec.expr.Evaluator;
import io.derive.engine.exec.expr.ExpressionCompiler;
import io.derive.engine.exec.expr.Parameters;
import io.derive.engine.plan.AggregateCall;
import io.derive.engine.plan.BoundExpr;
import io.derive.engine.plan.PlanNode;
import io.derive.engine.spi.RowCursor;
import io.derive.engine.types.ValueOrder;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Executes a {@link PlanNode.Aggregate}: groups input rows by their key values (NULLs form one
 * group, keys are equal as their collations compare them) and produces, per group in key order,
 * the keys and each aggregate's result. Without group keys there is exactly one group, even over no rows.
 */
final class Aggregation {
    private final PlanNode.Aggregate node;
    private final Parameters parameters;
    private final Evaluator[] keys;
    private final Evaluator[][] arguments;

    Aggregation(PlanNode.Aggregate node, Parameters parameters) {
        this.node = node;
        this.parameters = parameters;
        this.keys = node.groupKeys().stream().map(ExpressionCompiler::compile).toArray(Evaluator[]::new);
        this.arguments = new Evaluator[node.aggregates().size()][];
        for (int i = 0; i < arguments.length; i++) {
            arguments[i] = node.aggregates().get(i).arguments().stream().map(ExpressionCompiler::compile)
                    .toArray(Evaluator[]::new);
        }
    }

    /** The groups of the input, hashed by their keys' {@link EqualityKey}s, produced in key order. */
    List<Object[]> run(RowCursor input) {
        List<BoundExpr> groupKeys = node.groupKeys();
        List<io.derive.engine.types.Collation> collations = groupKeys.stream().map(BoundExpr::collation).toList();
        Map<List<Object>, Group> groups = new HashMap<>();
        try (input) {
            while (input.hasNext()) {
                Object[] row = input.next();
                Object[] key = new Object[keys.length];
                for (int i = 0; i < key.length; i++) {
                    key[i] = keys[i].eval(row, parameters);
                }
                Accumulator[] accumulators = groups.computeIfAbsent(EqualityKey.of(key, collations),
                        k -> new Group(key, newAccumulators())).accumulators();
                for (int i = 0; i < accumulators.length; i++) {
                    Object[] values = new Object[arguments[i].length];
                    for (int j = 0; j < values.length; j++) {
                        values[j] = arguments[i][j].eval(row, parameters);
                    }
                    accumulators[i].add(values);
                }
            }
        }
        if (groups.isEmpty() && keys.length == 0) {
            groups.put(List.of(), new Group(new Object[0], newAccumulators()));
        }
        List<Object[]> out = new ArrayList<>(groups.size());
        for (Group group : groups.values()) {
            Object[] row = new Object[keys.length + arguments.length];
            System.arraycopy(group.key(), 0, row, 0, keys.length);
            for (int i = 0; i < arguments.length; i++) {
                row[keys.length + i] = group.accumulators()[i].result();
            }
            out.add(row);
        }
        return inKeyOrder(out, node);
    }

    /** {@code rows} of {@code node}, sorted in place by their group keys as the keys' collations order them. */
    static List<Object[]> inKeyOrder(List<Object[]> rows, PlanNode.Aggregate node) {
        List<io.derive.engine.types.Collation> collations = node.groupKeys().stream().map(BoundExpr::collation).toList();
        rows.sort((a, b) -> {
            for (int i = 0; i < collations.size(); i++) {
                int c = ValueOrder.compare(a[i], b[i], collations.get(i));
                if (c != 0) {
                    return c;
                }
            }
            return 0;
        });
        return rows;
    }

    /** One group: the key values of its first row, and its aggregates' states. */
    private record Group(Object[] key, Accumulator[] accumulators) {
    }

    private Accumulator[] newAccumulators() {
        Accumulator[] accumulators = new Accumulator[node.aggregates().size()];
        for (int i = 0; i < accumulators.length; i++) {
            AggregateCall call = node.aggregates().get(i);
            accumulators[i] = Accumulator.of(call);
        }
        return accumulators;
    }
}
