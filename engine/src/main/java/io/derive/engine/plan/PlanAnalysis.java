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
        if (node instanceof PlanNode.TableScan scan) {
            out.addAll(scan.keyPrefix());
            if (scan.lower() != null) {
                out.add(scan.lower().value());
            }
            if (scan.upper() != null) {
                out.add(scan.upper().value());
            }
        } else if (node instanceof PlanNode.IndexScan i) {
            out.addAll(i.prefix());
            if (i.lower() != null) {
                out.add(i.lower().value());
            }
            if (i.upper() != null) {
                out.add(i.upper().value());
            }
        } else if (node instanceof PlanNode.FunctionScan f) {
            out.addAll(f.arguments());
        } else if (node instanceof PlanNode.Filter f) {
            out.add(f.predicate());
            collect(f.input(), out);
        } else if (node instanceof PlanNode.Project p) {
            out.addAll(p.expressions());
            collect(p.input(), out);
        } else if (node instanceof PlanNode.Distinct d) {
            collect(d.input(), out);
        } else if (node instanceof PlanNode.Sort s) {
            collect(s.input(), out);
        } else if (node instanceof PlanNode.Limit l) {
            if (l.limit() != null) {
                out.add(l.limit());
            }
            if (l.offset() != null) {
                out.add(l.offset());
            }
            collect(l.input(), out);
        } else if (node instanceof PlanNode.Join j) {
            out.addAll(j.leftKeys());
            out.addAll(j.rightKeys());
            if (j.condition() != null) {
                out.add(j.condition());
            }
            collect(j.left(), out);
            collect(j.right(), out);
        } else if (node instanceof PlanNode.Apply a) {
            collect(a.left(), out);
            collect(a.right(), out);
        } else if (node instanceof PlanNode.Aggregate a) {
            out.addAll(a.groupKeys());
            for (AggregateCall c : a.aggregates()) {
                out.addAll(c.arguments());
            }
            collect(a.input(), out);
        } else if (node instanceof PlanNode.SetOperation s) {
            collect(s.left(), out);
            collect(s.right(), out);
        } else if (node instanceof PlanNode.RecursiveUnion r) {
            collect(r.anchor(), out);
            collect(r.step(), out);
        }
    }
}
