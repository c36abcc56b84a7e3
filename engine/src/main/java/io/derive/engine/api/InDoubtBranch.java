package io.derive.engine.api;

import java.time.Instant;
import java.util.List;

/**
 * A global-transaction branch that a process which ended left prepared on a durable database,
 * as {@link Database#inDoubtBranches()} and {@code select * from in_doubt()} list it: still in
 * doubt, or decided by an operator ({@link Database#resolveHeuristically}) and not yet forgotten.
 *
 * @param xid       the branch
 * @param state     where it stands
 * @param touched   what it wrote, each as {@code table main.t}, {@code index main.t_by_v} or
 *                  {@code materialized view main.m}; for a branch that changed the catalog (DDL)
 *                  just {@code catalog}; empty while such a branch keeps the database from opening
 *                  its catalog, which names the tables
 * @param decidedAt when an operator decided it; null while it is in doubt
 */
public record InDoubtBranch(BranchId xid, State state, List<String> touched, Instant decidedAt) {

    /** Where an in-doubt branch stands. */
    public enum State {
        /** Prepared and undecided: what it wrote waits for its outcome. */
        IN_DOUBT("in doubt"),
        /** Committed by an operator; its transaction manager has not forgotten it yet. */
        HEURISTICALLY_COMMITTED("heuristically committed"),
        /** Rolled back by an operator; its transaction manager has not forgotten it yet. */
        HEURISTICALLY_ROLLED_BACK("heuristically rolled back");

        private final String label;

        State(String label) {
            this.label = label;
        }

        /** How listings show it: {@code in doubt}, {@code heuristically committed}, {@code heuristically rolled back}. */
        public String label() {
            return label;
        }
    }

    public InDoubtBranch {
        touched = List.copyOf(touched);
    }
}
