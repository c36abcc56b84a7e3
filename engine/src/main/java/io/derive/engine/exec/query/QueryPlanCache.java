package io.derive.engine.exec.query;

import io.derive.engine.plan.PlanNode;
import io.derive.engine.schema.Catalog;

import java.util.function.Supplier;

/**
 * The plan of one prepared query, kept while the schema it was planned against is the one the
 * next run sees. Catalog snapshots are immutable and replaced by DDL, so identity is the test.
 */
public final class QueryPlanCache {
    private Catalog catalog;
    private PlanNode plan;

    public PlanNode plan(Catalog current, Supplier<PlanNode> planner) {
        if (current != catalog) {
            plan = planner.get();
            catalog = current;
        }
        return plan;
    }

    /** Lets go of the plan and the schema it was planned against; the next run plans afresh. */
    public void forget() {
        catalog = null;
        plan = null;
    }
}
