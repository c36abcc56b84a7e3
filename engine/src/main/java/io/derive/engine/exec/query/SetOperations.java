package io.derive.engine.exec.query;

import io.derive.engine.plan.PlanNode;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/** {@code union [all]}, {@code intersect} and {@code except}; all but union all produce distinct rows. */
final class SetOperations {
    private SetOperations() {
    }

    static List<Object[]> run(PlanNode.SetOperation set, List<Object[]> left, List<Object[]> right) {
        if (set.operator() == PlanNode.SetOperator.UNION_ALL) {
            List<Object[]> all = new ArrayList<>(left);
            all.addAll(right);
            return all;
        }
        TreeSet<Object[]> result = new TreeSet<>(QueryExecutor.rowOrder(set.columns()));
        TreeSet<Object[]> other = new TreeSet<>(QueryExecutor.rowOrder(set.columns()));
        switch (set.operator()) {
            case UNION -> {
                result.addAll(left);
                result.addAll(right);
            }
            case INTERSECT -> {
                other.addAll(right);
                for (Object[] row : left) {
                    if (other.contains(row)) {
                        result.add(row);
                    }
                }
            }
            default -> {
                other.addAll(right);
                for (Object[] row : left) {
                    if (!other.contains(row)) {
                        result.add(row);
                    }
                }
            }
        }
        return new ArrayList<>(result);
    }
}
