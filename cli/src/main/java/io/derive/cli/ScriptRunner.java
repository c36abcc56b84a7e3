package io.derive.cli;

import io.derive.engine.api.DeriveException;
import io.derive.engine.api.Result;
import io.derive.engine.api.Session;

import java.io.PrintWriter;

/**
 * Runs the statements of scripts on one session, in order, reporting each outcome. A failing
 * statement does not stop the script: the engine guarantees it left no trace, so the next one
 * runs on the state the previous successes made.
 */
final class ScriptRunner {
    private final Session session;
    private final StatementOutcomes outcomes;
    private final PrintWriter err;

    ScriptRunner(Session session, StatementOutcomes outcomes, PrintWriter err) {
        this.session = session;
        this.outcomes = outcomes;
        this.err = err;
    }

    void run(Script script) {
        for (ScriptStatement statement : script.statements()) {
            if (statement.lexicalError() != null) {
                outcomes.failed(statement, StatementFailure.lexical(statement));
                continue;
            }
            try {
                Result result = session.execute(statement.text());
                outcomes.succeeded(statement, result);
            } catch (DeriveException e) {
                outcomes.failed(statement, StatementFailure.inStatement(statement, e));
            } catch (RuntimeException e) {
                // An engine bug: report it like any failure so the rest of the script still runs.
                outcomes.failed(statement, StatementFailure.inStatement(statement, new DeriveException(
                        DeriveException.INTERNAL, "internal error (" + e.getClass().getSimpleName() + ")", e)));
            }
        }
    }

    /**
     * Ends the run: a transaction the script began and never ended is rolled back rather than
     * committed, since the script's author did not say it was complete.
     *
     * @param what what ended, for the warning: {@code script} or {@code session}
     */
    void finish(String what) {
        if (session.inTransaction()) {
            session.rollback();
            err.println("warning: a transaction was still open at the end of the " + what + "; it was rolled back");
            err.flush();
        }
    }
}
