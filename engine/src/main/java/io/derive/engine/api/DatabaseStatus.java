package io.derive.engine.api;

import java.util.Objects;

/**
 * Where a database stands at one moment: whether its statements can run and, when they cannot,
 * why. It is a snapshot, for health checks and operators; ask again for a later one.
 *
 * @param state           the phase the database is in
 * @param inDoubtBranches in {@link State#WAITING_FOR_IN_DOUBT}, how many branches an ended process
 *                        left prepared are still undecided (at least 1); 0 in every other state
 * @param detail          one sentence for people: what the database is doing, or why it failed
 * @param pendingRehydrates how many materialized views a deferred rehydrate left pending are not
 *                        refilled yet ({@code rehydrate_pending()} lists them): each answers
 *                        {@code is being rehydrated} until then, so a readiness check may count
 *                        the database not ready while this is above 0; 0 when none, and in
 *                        {@link State#CLOSED} and {@link State#FAILED}
 */
public record DatabaseStatus(State state, int inDoubtBranches, String detail, int pendingRehydrates) {

    /** The phases of a database's life, in the order an open goes through them. */
    public enum State {
        /** Being opened (its catalog read, its materialized views rehydrated): statements cannot run yet. */
        OPENING,
        /**
         * Opened on a durable host that holds branches an ended process left prepared, not yet
         * decided by the transaction manager (or an operator): what they wrote, and the views
         * over it, fail at once while the rest answers; when one of them changed the catalog,
         * every statement fails, and its decision takes the database through {@link #OPENING}
         * again. Not ready, for a health check.
         */
        WAITING_FOR_IN_DOUBT,
        /** Open: statements run. */
        OPEN,
        /** Closed on request: statements fail. */
        CLOSED,
        /** It could not be opened, or was closed because of a failure: statements fail. */
        FAILED
    }

    public DatabaseStatus {
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(detail, "detail");
        if ((state == State.WAITING_FOR_IN_DOUBT) != (inDoubtBranches > 0)) {
            throw new IllegalArgumentException(state + " with " + inDoubtBranches + " in-doubt branches");
        }
        if (pendingRehydrates < 0 || pendingRehydrates > 0 && (state == State.CLOSED || state == State.FAILED)) {
            throw new IllegalArgumentException(state + " with " + pendingRehydrates + " pending rehydrates");
        }
    }

    /** A status with no view pending a rehydrate. */
    public DatabaseStatus(State state, int inDoubtBranches, String detail) {
        this(state, inDoubtBranches, detail, 0);
    }

    /**
     * The same status with {@code pending} views left for a deferred rehydrate, its detail
     * followed by how many; itself when {@code pending} is 0.
     */
    public DatabaseStatus withPendingRehydrates(int pending) {
        if (pending == 0) {
            return this;
        }
        return new DatabaseStatus(state, inDoubtBranches, detail + "; " + pending + " materialized view"
                + (pending == 1 ? " is" : "s are") + " being rehydrated", pending);
    }

    public static DatabaseStatus opening(String detail) {
        return new DatabaseStatus(State.OPENING, 0, detail);
    }

    public static DatabaseStatus waitingForInDoubt(int branches, String detail) {
        return new DatabaseStatus(State.WAITING_FOR_IN_DOUBT, branches, detail);
    }

    public static DatabaseStatus open(String detail) {
        return new DatabaseStatus(State.OPEN, 0, detail);
    }

    public static DatabaseStatus closed(String detail) {
        return new DatabaseStatus(State.CLOSED, 0, detail);
    }

    public static DatabaseStatus failed(String detail) {
        return new DatabaseStatus(State.FAILED, 0, detail);
    }

    /** True when statements run: the database is {@link State#OPEN}. */
    public boolean isOpen() {
        return state == State.OPEN;
    }

    /** True when the database will not open without help: it is {@link State#FAILED}. */
    public boolean isFailed() {
        return state == State.FAILED;
    }
}
