package io.derive.cli;

import io.derive.engine.api.Result;
import io.derive.engine.sql.ast.Statement;

/** Where a {@link ScriptRunner} reports each statement's outcome, in script order. */
interface StatementOutcomes {

    /** {@code statement}, parsed as {@code parsed}, produced {@code result}. */
    void succeeded(ScriptStatement statement, Statement parsed, Result result);

    /** {@code statement} failed and left no trace. */
    void failed(ScriptStatement statement, StatementFailure failure);
}
