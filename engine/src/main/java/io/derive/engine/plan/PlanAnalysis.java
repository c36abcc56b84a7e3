package io.derive.engine.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/** Properties of a plan that binding and execution need: determinism and correlation. */
public final class PlanAnalysis {
    private PlanAnalysis() {
    }

    /** Whether every expression of the plan is deterministic. */
    public static boolean deterministic(PlanNode plan) {
        return expressions(plan).stream().allMatch(BoundExpr::deterministic);
    }

    /**
     * Whether the plan reads a row of an enclosing query (conservatively: any {@link BoundExpr.OuterRef}
     * anywhere in it, nested subqueries included). A plan that does not can be evaluated once.
     */
    public static boolean readsOuterRows(PlanNode plan) {
        return anyExpression(plan, e -> e instanceof BoundExpr.OuterRef);
    }

    /** Whether the plan reads a statement parameter anywhere, nested subqueries included. */
    public static boolean readsParameters(PlanNode plan) {
        return anyExpression(plan, e -> e instanceof BoundExpr.ParameterRef);
    }

    private static boolean anyExpression(PlanNode plan, Predicate<BoundExpr> test) {
        for (BoundExpr e : expressions(plan)) {
            if (contains(e, test)) {
                return true;
            }
        }
        return false;
    }

    private static boolean contains(BoundExpr e, Predicate<BoundExpr> test) {
        if (test.test(e)) {
            return true;
        }
        if (e instanceof BoundExpr.Call c) {
            return c.arguments().stream().anyMatch(a -> contains(a, test));
        }
        if (e instanceof BoundExpr.Subquery q) {
            return (q.operand() != null && contains(q.operand(), test)) || anyExpression(q.plan(), test);
        }
        return false;
    }

    /** The expressions a plan node and its inputs evaluate (not descending into subqueries). */
    static List<BoundExpr> expressions(PlanNode plan) {
        List<BoundExpr> out = new ArrayList<>();
        collect(plan, out);
        return out;
    }

    private static void collect(PlanNode node, List<BoundExpr> out) {
        out.addAll(ownExpressions(node));
        for (PlanNode input : inputs(node)) {
            collect(input, out);
        }
    }

    /** The expressions this node itself evaluates (its inputs' not included). */
    public static List<BoundExpr> ownExpressions(PlanNode node) {
        List<BoundExpr> out = new ArrayList<>();
        if (node instanceof PlanNode.TableScan scan) {
            out.addAll(scan.keyPrefix());
            bound(scan.lower(), out);
            bound(scan.upper(), out);
        } else if (node instanceof PlanNode.IndexScan i) {
            out.addAll(i.prefix());
            bound(i.lower(), out);
            bound(i.upper(), out);
        } else if (node instanceof PlanNode.FunctionScan f) {
            out.addAll(f.arguments());
        } else if (node instanceof PlanNode.Filter f) {
            out.add(f.predicate());
        } else if (node instanceof PlanNode.Project p) {
            out.addAll(p.expressions());
        } else if (node instanceof PlanNode.Limit l) {
            if (l.limit() != null) {
                out.add(l.limit());
            }
            if (l.offset() != null) {
                out.add(l.offset());
            }
        } else if (node instanceof PlanNode.Join j) {
            out.addAll(j.leftKeys());
            out.addAll(j.rightKeys());
            if (j.condition() != null) {
                out.add(j.condition());
            }
        } else if (node instanceof PlanNode.Aggregate a) {
            out.addAll(a.groupKeys());
            for (AggregateCall c : a.aggregates()) {
                out.addAll(c.arguments());
            }
        }
        return out;
    }

    private static void bound(PlanNode.Bound b, List<BoundExpr> out) {
        if (b != null) {
            out.add(b.value());
        }
    }

    /** The inputs of a plan node, in order. */
    public static List<PlanNode> inputs(PlanNode node) {
        if (node instanceof PlanNode.Filter f) {
            return List.of(f.input());
        }
        if (node instanceof PlanNode.Project p) {
            return List.of(p.input());
        }
        if (node instanceof PlanNode.Distinct d) {
            return List.of(d.input());
        }
        if (node instanceof PlanNode.Sort s) {
            return List.of(s.input());
        }
        if (node instanceof PlanNode.Limit l) {
            return List.of(l.input());
        }
        if (node instanceof PlanNode.Aggregate a) {
            return List.of(a.input());
        }
        if (node instanceof PlanNode.Join j) {
            return List.of(j.left(), j.right());
        }
        if (node instanceof PlanNode.Apply a) {
            return List.of(a.left(), a.right());
        }
        if (node instanceof PlanNode.SetOperation s) {
            return List.of(s.left(), s.right());
        }
        if (node instanceof PlanNode.RecursiveUnion r) {
            return List.of(r.anchor(), r.step());
        }
        return List.of();
    }
}
