package io.derive.engine.plan;

import io.derive.engine.schema.TableSchema;
import io.derive.engine.spi.TableShape;
import io.derive.engine.sql.ast.Select;
import io.derive.engine.types.Collation;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;

/**
 * Plans a {@link Relation} with its {@code where} predicate: pushes single-source conjuncts down
 * to their source (where a key-prefix seek can use them, inside a derived table, view or common
 * table too: {@link PredicatePushdown}), orders inner joins greedily (smallest
 * estimated source first, then always a connected source), turns equality conjuncts into join
 * keys (an index lookup when they cover the right table's key prefix) and keeps the rest as join
 * conditions. The planned rows keep the relation's column order.
 */
final class JoinPlanner {
    private JoinPlanner() {
    }

    static PlanNode plan(Relation relation, BoundExpr where) {
        List<BoundExpr> conjuncts = BoundExpr.conjuncts(where);
        if (isInnerTree(relation)) {
            List<Relation.Leaf> leaves = new ArrayList<>();
            List<BoundExpr> all = new ArrayList<>(conjuncts);
            collectInner(relation, 0, leaves, all);
            return new InnerJoinOrder(leaves, all).plan();
        }
        List<BoundExpr> rest = new ArrayList<>(conjuncts);
        PlanNode fixed = fixed(relation, rest);
        return filter(fixed, rest);
    }

    private static boolean isInnerTree(Relation r) {
        if (r instanceof Relation.Leaf) {
            return true;
        }
        if (r instanceof Relation.Join j) {
            return (j.kind() == Select.JoinKind.INNER || j.kind() == Select.JoinKind.CROSS)
                    && isInnerTree(j.left()) && isInnerTree(j.right());
        }
        return false;
    }

    /** The leaves in written order, and every join condition moved to the whole row's slots. */
    private static void collectInner(Relation r, int offset, List<Relation.Leaf> leaves, List<BoundExpr> conjuncts) {
        if (r instanceof Relation.Leaf leaf) {
            leaves.add(leaf);
            return;
        }
        Relation.Join j = (Relation.Join) r;
        collectInner(j.left(), offset, leaves, conjuncts);
        collectInner(j.right(), offset + j.left().scope().width(), leaves, conjuncts);
        for (BoundExpr c : BoundExpr.conjuncts(j.condition())) {
            conjuncts.add(Slots.remap(c, i -> i + offset));
        }
    }

    /**
     * Outer joins and lateral sources keep their written order. The {@code where} conjuncts over
     * a left (right) join's preserved side alone are taken from {@code conjuncts} and filter that
     * side before the join, where a seek can use them: the join keeps or drops a preserved row by
     * its own columns either way, but reading the whole side first costs a scan per query.
     */
    private static PlanNode fixed(Relation r, List<BoundExpr> conjuncts) {
        if (r instanceof Relation.Leaf leaf) {
            return leaf.plan();
        }
        if (r instanceof Relation.Apply a) {
            return filter(new PlanNode.Apply(plan(a.left(), null), a.right(), a.outer()), BoundExpr.conjuncts(a.condition()));
        }
        Relation.Join j = (Relation.Join) r;
        int leftWidth = j.left().scope().width();
        int rightWidth = j.right().scope().width();
        List<BoundExpr> onLeft = j.kind() == Select.JoinKind.LEFT ? take(conjuncts, 0, leftWidth) : List.of();
        List<BoundExpr> onRight = j.kind() == Select.JoinKind.RIGHT ? take(conjuncts, leftWidth, leftWidth + rightWidth) : List.of();
        PlanNode left = plan(j.left(), BoundExpr.and(onLeft));
        PlanNode right = plan(j.right(), BoundExpr.and(onRight));
        if (j.kind() == Select.JoinKind.RIGHT) {
            // A right join is the left join of the swapped inputs, projected back to written order.
            BoundExpr swapped = j.condition() == null ? null
                    : Slots.remap(j.condition(), i -> i < leftWidth ? i + rightWidth : i - leftWidth);
            PlanNode join = join(right, left, PlanNode.JoinType.LEFT, swapped, rightWidth);
            List<Integer> order = new ArrayList<>();
            for (int i = 0; i < leftWidth; i++) {
                order.add(rightWidth + i);
            }
            for (int i = 0; i < rightWidth; i++) {
                order.add(i);
            }
            return reorder(join, order);
        }
        PlanNode.JoinType type = switch (j.kind()) {
            case LEFT -> PlanNode.JoinType.LEFT;
            case FULL -> PlanNode.JoinType.FULL;
            default -> PlanNode.JoinType.INNER;
        };
        return join(left, right, type, j.condition(), leftWidth);
    }

    /**
     * Removes from {@code conjuncts} those that read slots of {@code [from, to)} only (at least
     * one) and may be moved, and answers them remapped to read slot {@code i - from}.
     */
    private static List<BoundExpr> take(List<BoundExpr> conjuncts, int from, int to) {
        List<BoundExpr> taken = new ArrayList<>();
        for (Iterator<BoundExpr> it = conjuncts.iterator(); it.hasNext(); ) {
            BoundExpr c = it.next();
            BitSet read = Slots.read(c);
            if (!read.isEmpty() && read.nextSetBit(0) >= from && read.length() <= to && Slots.movable(c)) {
                taken.add(Slots.remap(c, i -> i - from));
                it.remove();
            }
        }
        return taken;
    }

    /** A join whose condition's equalities between the two sides become keys. */
    static PlanNode join(PlanNode left, PlanNode right, PlanNode.JoinType type, BoundExpr condition, int leftWidth) {
        List<BoundExpr> leftKeys = new ArrayList<>();
        List<BoundExpr> rightKeys = new ArrayList<>();
        List<Collation> collations = new ArrayList<>();
        List<BoundExpr> residual = new ArrayList<>();
        for (BoundExpr c : BoundExpr.conjuncts(condition)) {
            if (!equiKey(c, leftWidth, leftKeys, rightKeys, collations)) {
                residual.add(c);
            }
        }
        return keyedJoin(left, right, type, leftKeys, rightKeys, collations, BoundExpr.and(residual));
    }

    /** Adds the sides of {@code left = right} as keys when each reads one input only. */
    static boolean equiKey(BoundExpr c, int leftWidth, List<BoundExpr> leftKeys, List<BoundExpr> rightKeys,
                           List<Collation> collations) {
        if (!(c instanceof BoundExpr.Call call) || !call.operator().equals("=") || !Slots.movable(c)) {
            return false;
        }
        BoundExpr a = call.arguments().get(0);
        BoundExpr b = call.arguments().get(1);
        BitSet sa = Slots.read(a);
        BitSet sb = Slots.read(b);
        if (sa.isEmpty() || sb.isEmpty()) {
            return false;
        }
        boolean aLeft = sa.previousSetBit(sa.length()) < leftWidth;
        boolean aRight = sa.nextSetBit(0) >= leftWidth;
        boolean bLeft = sb.previousSetBit(sb.length()) < leftWidth;
        boolean bRight = sb.nextSetBit(0) >= leftWidth;
        if (aLeft && bRight) {
            leftKeys.add(a);
            rightKeys.add(Slots.remap(b, i -> i - leftWidth));
        } else if (aRight && bLeft) {
            leftKeys.add(b);
            rightKeys.add(Slots.remap(a, i -> i - leftWidth));
        } else {
            return false;
        }
        collations.add(call.collation());
        return true;
    }

    /** The join, as an index lookup when the right keys are a prefix of the right table's key. */
    static PlanNode keyedJoin(PlanNode left, PlanNode right, PlanNode.JoinType type, List<BoundExpr> leftKeys,
                              List<BoundExpr> rightKeys, List<Collation> collations, BoundExpr residual) {
        PlanNode.TableScan scan = right instanceof PlanNode.TableScan s ? s
                : right instanceof PlanNode.Filter f && f.input() instanceof PlanNode.TableScan s ? s : null;
        if (type != PlanNode.JoinType.FULL && scan != null && scan.keyPrefix().isEmpty() && !scan.isRange() && !rightKeys.isEmpty()) {
            TableSchema table = scan.table();
            List<BoundExpr> lk = new ArrayList<>();
            List<BoundExpr> rk = new ArrayList<>();
            List<Collation> cs = new ArrayList<>();
            // By position: two keys may equate the same right column (a.x = b.k and b.k = a.y), and each must hold.
            List<Integer> seeking = new ArrayList<>();
            for (TableShape.KeyPart part : table.primaryKey()) {
                int found = -1;
                for (int i = 0; i < rightKeys.size(); i++) {
                    if (rightKeys.get(i) instanceof BoundExpr.ColumnSlot slot && slot.index() == part.column()
                            && collations.get(i) == table.columns().get(part.column()).collation()) {
                        found = i;
                    }
                }
                if (found < 0) {
                    break;
                }
                seeking.add(found);
                lk.add(leftKeys.get(found));
                rk.add(rightKeys.get(found));
                cs.add(collations.get(found));
            }
            if (lk.isEmpty() && !scan.notIndexed()) {
                Optional<AccessPath.IndexLookup> index = AccessPath.indexLookup(table, rightKeys, collations);
                if (index.isPresent()) {
                    for (int position : index.get().keyPositions()) {
                        seeking.add(position);
                        lk.add(leftKeys.get(position));
                        rk.add(rightKeys.get(position));
                        cs.add(collations.get(position));
                    }
                    PlanNode indexed = new PlanNode.IndexScan(table, index.get().index(), List.of());
                    right = right instanceof PlanNode.Filter f ? new PlanNode.Filter(indexed, f.predicate()) : indexed;
                }
            }
            if (!lk.isEmpty()) {
                // Keys beyond the seek prefix stay as conditions over the combined row.
                List<BoundExpr> rest = new ArrayList<>(BoundExpr.conjuncts(residual));
                int leftWidth = left.columns().size();
                for (int i = 0; i < rightKeys.size(); i++) {
                    if (!seeking.contains(i)) {
                        rest.add(new BoundExpr.Call("=", null, List.of(leftKeys.get(i),
                                Slots.remap(rightKeys.get(i), j -> j + leftWidth)), io.derive.engine.types.SqlType.INTEGER,
                                collations.get(i), true));
                    }
                }
                return new PlanNode.Join(left, right, type, lk, rk, cs, BoundExpr.and(rest), true);
            }
        }
        return new PlanNode.Join(left, right, type, leftKeys, rightKeys, collations, residual, false);
    }

    static PlanNode filter(PlanNode input, List<BoundExpr> conjuncts) {
        BoundExpr predicate = BoundExpr.and(conjuncts);
        return predicate == null ? input : new PlanNode.Filter(input, predicate);
    }

    /** The rows with their columns in the given order of input slots. */
    static PlanNode reorder(PlanNode input, List<Integer> order) {
        List<OutputColumn> columns = input.columns();
        List<BoundExpr> exprs = new ArrayList<>();
        List<OutputColumn> out = new ArrayList<>();
        for (int slot : order) {
            OutputColumn c = columns.get(slot);
            exprs.add(new BoundExpr.ColumnSlot(slot, c.name(), c.type(), c.collation(), c.notNull()));
            out.add(c);
        }
        return new PlanNode.Project(input, exprs, out);
    }
}
