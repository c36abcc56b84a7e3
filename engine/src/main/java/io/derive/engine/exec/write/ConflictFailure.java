package io.derive.engine.exec.write;

import io.derive.engine.api.DeriveException;

/**
 * A constraint failure whose conflict clause asks the session for more than undoing the
 * statement: {@code or fail} keeps the rows the statement wrote before the failing one, {@code or
 * rollback} ends the whole transaction. The session reads {@link #outcome()} and reports the error
 * to the user as a plain {@link DeriveException}.
 */
public final class ConflictFailure extends DeriveException {
    private static final long serialVersionUID = 1L;

    public enum Outcome {
        /** Release the statement savepoint: the work before the failing row stays. */
        KEEP_STATEMENT_WORK,
        /** Roll the transaction back. */
        END_TRANSACTION
    }

    private final Outcome outcome;
    private final DeriveException reported;

    public ConflictFailure(DeriveException reported, Outcome outcome) {
        super(reported.code(), reported.getMessage());
        this.reported = reported;
        this.outcome = outcome;
    }

    public Outcome outcome() {
        return outcome;
    }

    /** The error as the user sees it. */
    public DeriveException reported() {
        return reported;
    }
}
