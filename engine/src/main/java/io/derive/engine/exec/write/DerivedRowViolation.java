package io.derive.engine.exec.write;

import io.derive.engine.api.DeriveException;

/**
 * A declared constraint of a maintained table failed for a row maintenance derived (semantics
 * §6). It always aborts the writing statement: the statement's conflict clause ({@code or
 * ignore}, {@code or replace}, {@code or fail}, {@code on conflict …}) is about the rows the
 * statement itself writes, and masking a derived row's violation would silently make the table
 * disagree with its body; the DML executor passes it on untouched.
 */
public final class DerivedRowViolation extends DeriveException {
    private static final long serialVersionUID = 1L;

    public DerivedRowViolation(String message) {
        super(CONSTRAINT, message);
    }
}
