package io.derive.engine.plan;

import io.derive.engine.types.Collation;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * Greedy ordering of an inner join of many sources: start with the source estimated smallest
 * after its own filters, then repeatedly add the smallest source that an equality connects to
 * those already joined (a cross product only when none is connected). Linear in the number of
 * conjuncts per step, so dozens of sources plan in well under a millisecond each.
 */
final class InnerJoinOrder {
    private final List<Relation.Leaf> leaves;
    private final int[] offsets;
    private final int width;
    private final List<BoundExpr> top = new ArrayList<>();
    private final List<Pending> multiSource = new ArrayList<>();
    private final List<List<BoundExpr>> local = new ArrayList<>();

    /** A conjunct over several sources, in whole-row slots, and the sources it reads. */
    private record Pending(BoundExpr conjunct, BitSet sources) {
    }

    /**
     * @param leaves    the sources in written order
     * @param conjuncts predicates over the whole row (written column order)
     */
    InnerJoinOrder(List<Relation.Leaf> leaves, List<BoundExpr> conjuncts) {
        this.leaves = leaves;
        this.offsets = new int[leaves.size()];
        int w = 0;
        for (int i = 0; i < leaves.size(); i++) {
            offsets[i] = w;
            w += leaves.get(i).scope().width();
            local.add(new ArrayList<>());
        }
        this.width = w;
        for (BoundExpr c : conjuncts) {
            BitSet sources = sourcesOf(Slots.read(c));
            if (!Slots.movable(c)) {
                top.add(c);
            } else if (sources.cardinality() == 1) {
                int leaf = sources.nextSetBit(0);
                local.get(leaf).add(Slots.remap(c, i -> i - offsets[leaf]));
            } else if (sources.isEmpty()) {
                top.add(c);
            } else {
                multiSource.add(new Pending(c, sources));
            }
        }
    }

    PlanNode plan() {
        int n = leaves.size();
        PlanNode[] planned = new PlanNode[n];
        double[] estimate = new double[n];
        for (int i = 0; i < n; i++) {
            planned[i] = PredicatePushdown.filter(leaves.get(i).plan(), BoundExpr.and(local.get(i)));
            estimate[i] = leaves.get(i).estimatedRows() / (local.get(i).isEmpty() ? 1 : 4);
            if (planned[i] instanceof PlanNode.Filter f && f.input() instanceof PlanNode.TableScan s
                    && s.keyPrefix().size() == s.table().primaryKey().size()) {
                estimate[i] = 1;
            }
        }
        List<Integer> order = new ArrayList<>();
        BitSet joined = new BitSet();
        int first = 0;
        for (int i = 1; i < n; i++) {
            if (estimate[i] < estimate[first]) {
                first = i;
            }
        }
        order.add(first);
        joined.set(first);
        PlanNode plan = planned[first];
        double rows = estimate[first];
        List<Pending> open = new ArrayList<>(multiSource);
        while (order.size() < n) {
            int next = -1;
            for (int i = 0; i < n; i++) {
                if (!joined.get(i) && (next < 0 || better(i, next, joined, open, estimate))) {
                    next = i;
                }
            }
            List<Pending> before = new ArrayList<>(open);
            PlanNode joinedPlan = addSource(plan, order, next, planned[next], open, false);
            boolean lookup = joinedPlan instanceof PlanNode.Join j && j.lookup();
            if (!lookup && estimate[next] > rows) {
                // A hash join builds its right side: let the larger source probe the smaller one.
                open = before;
                joinedPlan = addSource(plan, order, next, planned[next], open, true);
                order.add(0, next);
            } else {
                order.add(next);
            }
            plan = joinedPlan;
            joined.set(next);
            rows = Math.max(rows, estimate[next]);
        }
        List<Integer> layout = layout(order);
        if (!isIdentity(layout)) {
            List<Integer> restore = new ArrayList<>();
            for (int slot = 0; slot < width; slot++) {
                restore.add(layout.indexOf(slot));
            }
            plan = JoinPlanner.reorder(plan, restore);
        }
        for (Pending p : open) {
            top.add(p.conjunct());
        }
        return JoinPlanner.filter(plan, top);
    }

    private boolean better(int candidate, int current, BitSet joined, List<Pending> open, double[] estimate) {
        boolean c = connected(candidate, joined, open);
        boolean k = connected(current, joined, open);
        if (c != k) {
            return c;
        }
        return estimate[candidate] < estimate[current];
    }

    private static boolean connected(int leaf, BitSet joined, List<Pending> open) {
        for (Pending p : open) {
            if (p.sources().get(leaf) && p.sources().intersects(joined)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Joins {@code source} to the plan so far, with every open conjunct that the union now covers;
     * with {@code sourceFirst} the source is the join's left (probing) input.
     */
    private PlanNode addSource(PlanNode plan, List<Integer> order, int source, PlanNode sourcePlan, List<Pending> open,
                               boolean sourceFirst) {
        List<Integer> orderAfter = new ArrayList<>(order);
        if (sourceFirst) {
            orderAfter.add(0, source);
        } else {
            orderAfter.add(source);
        }
        List<Integer> after = layout(orderAfter);
        BitSet covered = new BitSet();
        orderAfter.forEach(covered::set);
        int leftWidth = sourceFirst ? leaves.get(source).scope().width() : layout(order).size();
        List<BoundExpr> leftKeys = new ArrayList<>();
        List<BoundExpr> rightKeys = new ArrayList<>();
        List<Collation> collations = new ArrayList<>();
        List<BoundExpr> residual = new ArrayList<>();
        for (var it = open.iterator(); it.hasNext(); ) {
            Pending p = it.next();
            BitSet outside = (BitSet) p.sources().clone();
            outside.andNot(covered);
            if (!outside.isEmpty()) {
                continue;
            }
            it.remove();
            BoundExpr c = Slots.remap(p.conjunct(), after::indexOf);
            if (!JoinPlanner.equiKey(c, leftWidth, leftKeys, rightKeys, collations)) {
                residual.add(c);
            }
        }
        PlanNode left = sourceFirst ? sourcePlan : plan;
        PlanNode right = sourceFirst ? plan : sourcePlan;
        return JoinPlanner.keyedJoin(left, right, PlanNode.JoinType.INNER, leftKeys, rightKeys, collations,
                BoundExpr.and(residual));
    }

    /** For each slot of the joined row, in order, the whole-row slot it holds. */
    private List<Integer> layout(List<Integer> order) {
        List<Integer> slots = new ArrayList<>();
        for (int leaf : order) {
            int w = leaves.get(leaf).scope().width();
            for (int i = 0; i < w; i++) {
                slots.add(offsets[leaf] + i);
            }
        }
        return slots;
    }

    private static boolean isIdentity(List<Integer> layout) {
        for (int i = 0; i < layout.size(); i++) {
            if (layout.get(i) != i) {
                return false;
            }
        }
        return true;
    }

    private BitSet sourcesOf(BitSet slots) {
        BitSet sources = new BitSet();
        for (int s = slots.nextSetBit(0); s >= 0; s = slots.nextSetBit(s + 1)) {
            for (int leaf = leaves.size() - 1; leaf >= 0; leaf--) {
                if (s >= offsets[leaf]) {
                    sources.set(leaf);
                    break;
                }
            }
        }
        return sources;
    }
}
