package io.derive.engine.mv;

import io.derive.engine.plan.BoundExpr;
import io.derive.engine.plan.PlanNode;
import io.derive.engine.plan.SystemTableFunction;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.spi.TableShape;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;

/**
 * A provable unique key of a plan's output (semantics §3): output positions whose values no two
 * output rows share. An empty list means the plan yields at most one row; an empty Optional that
 * no key is provable.
 */
final class KeyAnalysis {
    private KeyAnalysis() {
    }

    static Optional<List<Integer>> key(PlanNode node) {
        if (node instanceof PlanNode.TableScan scan) {
            return Optional.of(tableKey(scan.table()));
        }
        if (node instanceof PlanNode.IndexScan scan) {
            return Optional.of(tableKey(scan.table()));
        }
        if (node instanceof PlanNode.Filter f) {
            return key(f.input());
        }
        if (node instanceof PlanNode.Sort s) {
            return key(s.input());
        }
        if (node instanceof PlanNode.Limit l) {
            return key(l.input());
        }
        if (node instanceof PlanNode.SingleRow) {
            return Optional.of(List.of());
        }
        if (node instanceof PlanNode.Distinct d) {
            return Optional.of(all(d.columns().size()));
        }
        if (node instanceof PlanNode.Aggregate a) {
            return Optional.of(all(a.groupKeys().size()));
        }
        if (node instanceof PlanNode.Project p) {
            return key(p.input()).flatMap(inputKey -> carried(inputKey, p.expressions()));
        }
        if (node instanceof PlanNode.SetOperation s) {
            return s.operator() == PlanNode.SetOperator.UNION_ALL ? Optional.empty() : Optional.of(all(s.columns().size()));
        }
        if (node instanceof PlanNode.RecursiveUnion r) {
            return r.all() ? Optional.empty() : Optional.of(all(r.columns().size()));
        }
        if (node instanceof PlanNode.Join j) {
            return joinKey(j);
        }
        if (node instanceof PlanNode.Apply a) {
            return concat(key(a.left()), key(a.right()), a.left().columns().size());
        }
        if (node instanceof PlanNode.FunctionScan f && f.function() == SystemTableFunction.GENERATE_SERIES) {
            return Optional.of(List.of(0));
        }
        return Optional.empty();
    }

    /** The physical key of a table: its primary key, or the implicit rowid of a bag. */
    private static List<Integer> tableKey(TableSchema table) {
        List<Integer> key = new ArrayList<>();
        for (TableShape.KeyPart part : table.primaryKey()) {
            key.add(part.column());
        }
        return key;
    }

    /** The input key through a projection: every key slot must be output as a bare column. */
    private static Optional<List<Integer>> carried(List<Integer> inputKey, List<BoundExpr> outputs) {
        List<Integer> key = new ArrayList<>();
        for (int slot : inputKey) {
            int position = -1;
            for (int i = 0; i < outputs.size() && position < 0; i++) {
                if (outputs.get(i) instanceof BoundExpr.ColumnSlot s && s.index() == slot) {
                    position = i;
                }
            }
            if (position < 0) {
                return Optional.empty();
            }
            key.add(position);
        }
        return Optional.of(key);
    }

    /**
     * A join row is identified by both sides' keys together; when the equality keys cover the
     * whole key of one side, that side matches at most one row (a 1:1 or n:1 join), and the other
     * side's key alone identifies the row. A full join keeps both.
     */
    private static Optional<List<Integer>> joinKey(PlanNode.Join j) {
        Optional<List<Integer>> left = key(j.left());
        Optional<List<Integer>> right = key(j.right());
        int leftWidth = j.left().columns().size();
        if (j.type() != PlanNode.JoinType.FULL) {
            if (left.isPresent() && right.isPresent() && covers(j.rightKeys(), right.get())) {
                return left;
            }
            if (j.type() == PlanNode.JoinType.INNER && left.isPresent() && right.isPresent()
                    && covers(j.leftKeys(), left.get())) {
                return Optional.of(right.get().stream().map(k -> k + leftWidth).toList());
            }
        }
        return concat(left, right, leftWidth);
    }

    /** Whether the equality keys include a bare column for every position of {@code key}. */
    private static boolean covers(List<BoundExpr> equalityKeys, List<Integer> key) {
        for (int slot : key) {
            boolean found = false;
            for (BoundExpr e : equalityKeys) {
                found |= e instanceof BoundExpr.ColumnSlot s && s.index() == slot;
            }
            if (!found) {
                return false;
            }
        }
        return true;
    }

    /** A row of a join is identified by the keys of both sides together. */
    private static Optional<List<Integer>> concat(Optional<List<Integer>> left, Optional<List<Integer>> right, int leftWidth) {
        if (left.isEmpty() || right.isEmpty()) {
            return Optional.empty();
        }
        List<Integer> key = new ArrayList<>(left.get());
        right.get().forEach(k -> key.add(k + leftWidth));
        return Optional.of(key);
    }

    private static List<Integer> all(int width) {
        return IntStream.range(0, width).boxed().toList();
    }
}
