package io.derive.cli;

import io.derive.engine.api.Result;

/** Where a {@link ScriptRunner} reports each statement's outcome, in script order. */
interface StatementOutcomes {

    /** {@code statement} produced {@code result}. */
    void succeeded(ScriptStatement statement, Result result);

    /** {@code statement} failed and left no trace. */
    void failed(ScriptStatement statement, StatementFailure failure);
}
