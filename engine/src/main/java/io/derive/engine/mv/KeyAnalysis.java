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
        List<List<Integer>> keys = keys(node);
        return keys.isEmpty() ? Optional.empty() : Optional.of(keys.get(0));
    }

    /**
     * Every key found, best first. A join can be keyed by either side when values are equated
     * (m.id = c.k), and a projection above it keeps whichever it publishes.
     */
    private static List<List<Integer>> keys(PlanNode node) {
        if (node instanceof PlanNode.TableScan scan) {
            return List.of(tableKey(scan.table()));
        }
        if (node instanceof PlanNode.IndexScan scan) {
            return List.of(tableKey(scan.table()));
        }
        if (node instanceof PlanNode.Filter f) {
            return keys(f.input());
        }
        if (node instanceof PlanNode.Sort s) {
            return keys(s.input());
        }
        if (node instanceof PlanNode.Limit l) {
            return keys(l.input());
        }
        if (node instanceof PlanNode.SingleRow) {
            return List.of(List.of());
        }
        if (node instanceof PlanNode.Distinct d) {
            return List.of(all(d.columns().size()));
        }
        if (node instanceof PlanNode.Aggregate a) {
            return List.of(all(a.groupKeys().size()));
        }
        if (node instanceof PlanNode.Project p) {
            List<List<Integer>> out = new ArrayList<>();
            for (List<Integer> inputKey : keys(p.input())) {
                carried(inputKey, p.expressions()).ifPresent(out::add);
            }
            return out;
        }
        if (node instanceof PlanNode.SetOperation s) {
            return s.operator() == PlanNode.SetOperator.UNION_ALL ? List.of() : List.of(all(s.columns().size()));
        }
        if (node instanceof PlanNode.RecursiveUnion r) {
            return r.all() ? List.of() : List.of(all(r.columns().size()));
        }
        if (node instanceof PlanNode.Join j) {
            return joinKeys(j);
        }
        if (node instanceof PlanNode.Apply a) {
            return concat(keys(a.left()), keys(a.right()), a.left().columns().size());
        }
        if (node instanceof PlanNode.FunctionScan f && f.function() == SystemTableFunction.GENERATE_SERIES) {
            return List.of(List.of(0));
        }
        return List.of();
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
    private static List<List<Integer>> joinKeys(PlanNode.Join j) {
        List<List<Integer>> left = keys(j.left());
        List<List<Integer>> right = keys(j.right());
        int leftWidth = j.left().columns().size();
        List<List<Integer>> out = new ArrayList<>();
        if (j.type() != PlanNode.JoinType.FULL) {
            for (List<Integer> r : right) {
                if (covers(j.rightKeys(), r)) {
                    out.addAll(left);
                }
            }
            for (List<Integer> l : left) {
                if (j.type() == PlanNode.JoinType.INNER && covers(j.leftKeys(), l)) {
                    right.forEach(r -> out.add(r.stream().map(k -> k + leftWidth).toList()));
                }
            }
        }
        out.addAll(concat(left, right, leftWidth));
        return out;
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
    private static List<List<Integer>> concat(List<List<Integer>> left, List<List<Integer>> right, int leftWidth) {
        List<List<Integer>> out = new ArrayList<>();
        for (List<Integer> l : left) {
            for (List<Integer> r : right) {
                List<Integer> key = new ArrayList<>(l);
                r.forEach(k -> key.add(k + leftWidth));
                out.add(key);
            }
        }
        return out;
    }

    private static List<Integer> all(int width) {
        return IntStream.range(0, width).boxed().toList();
    }
}
