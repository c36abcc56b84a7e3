package io.derive.engine.mv;

import io.derive.engine.plan.BoundExpr;
import io.derive.engine.plan.PlanNode;
import io.derive.engine.spi.TableShape;

import java.util.List;

/**
 * Recognises the per-row projection shape (semantics §4.1): one table, an optional filter and a
 * projection of deterministic row-local expressions, with an optional {@code order by} on top.
 * The source key being carried is checked by {@link KeyAnalysis}.
 */
final class PerRowShape {
    private PerRowShape() {
    }

    static boolean matches(PlanNode plan) {
        PlanNode.Project project = project(plan);
        if (project == null) {
            return false;
        }
        PlanNode input = project.input();
        if (input instanceof PlanNode.Filter f) {
            if (!rowLocal(f.predicate())) {
                return false;
            }
            input = f.input();
        }
        return input instanceof PlanNode.TableScan && project.expressions().stream().allMatch(PerRowShape::rowLocal)
                && KeyAnalysis.key(plan).map(k -> !k.isEmpty()).orElse(false);
    }

    static PerRowProjection arm(PlanNode plan, List<String> names, TableShape backing) {
        PlanNode.Project project = project(plan);
        BoundExpr predicate = project.input() instanceof PlanNode.Filter f ? f.predicate() : null;
        return new PerRowProjection(names, predicate, project.expressions(), backing);
    }

    /** The source table of a per-row body. */
    static PlanNode.TableScan scan(PlanNode plan) {
        PlanNode input = project(plan).input();
        return (PlanNode.TableScan) (input instanceof PlanNode.Filter f ? f.input() : input);
    }

    private static PlanNode.Project project(PlanNode plan) {
        PlanNode top = plan instanceof PlanNode.Sort s ? s.input() : plan;
        return top instanceof PlanNode.Project p ? p : null;
    }

    /** Deterministic and reading nothing but the row: no subquery, no enclosing row. */
    static boolean rowLocal(BoundExpr e) {
        if (e instanceof BoundExpr.Subquery || e instanceof BoundExpr.OuterRef || !e.deterministic()) {
            return false;
        }
        if (e instanceof BoundExpr.Call c) {
            return c.arguments().stream().allMatch(PerRowShape::rowLocal);
        }
        return true;
    }
}
