package io.derive.derby.crash;

import java.util.List;

/**
 * The statements of one workload transaction, in order; the last one writes its {@code log} row.
 * The plan is a pure function of the seed, the transaction id and the state it starts from
 * ({@link TransactionPlanner}), so the parent can rebuild the plan the child ran.
 */
record TransactionPlan(long txn, List<Step> steps) {

    TransactionPlan {
        steps = List.copyOf(steps);
    }

    /** The statements, one per line, for failure messages. */
    String describe() {
        StringBuilder text = new StringBuilder("transaction " + txn + ":");
        steps.forEach(step -> text.append("\n      ").append(step.describe()));
        return text.toString();
    }

    /** Applies every step's committed effect to {@code state}, as if the transaction committed. */
    void applyTo(WorkloadState state) {
        for (Step step : steps) {
            step.applyTo(state);
        }
    }
}
