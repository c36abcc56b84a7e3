package io.derive.engine.exec.context;

import io.derive.engine.exec.expr.Parameters;
import io.derive.engine.exec.query.QueryExecutor;
import io.derive.engine.exec.query.QueryPlanCache;
import io.derive.engine.exec.query.SystemTables;
import io.derive.engine.txn.Transaction;

/**
 * Everything one statement runs with.
 *
 * @param transaction the transaction it runs in (its own, in autocommit)
 * @param parameters  the values bound to its parameters; subqueries evaluated with them run in
 *                    {@code transaction}
 * @param sql         its text, which the AST's spans point into
 * @param services    the database-wide services
 * @param pragmas     the pragma values of the session running it
 * @param plans       where a prepared query keeps its plan between runs; null for a one-off statement
 * @param work        what the statement leaves for its end (deferred view maintenance)
 */
public record ExecutionContext(Transaction transaction, Parameters parameters, String sql, EngineServices services,
                               Pragmas pragmas, QueryPlanCache plans, StatementWork work) {

    public ExecutionContext {
        SystemTables systemTables = services.systemTables();
        parameters = parameters.withRunner((plan, p) -> new QueryExecutor(transaction, p, systemTables).readAll(plan));
    }

    public QueryExecutor queries() {
        return new QueryExecutor(transaction, parameters, services.systemTables());
    }

    /**
     * Runs plans in this statement's transaction with {@code bindings} instead of the
     * statement's: for a stored plan restricted by named parameters (a materialized view's
     * slice), which reads none of the statement's.
     */
    public QueryExecutor queries(Parameters bindings) {
        return new QueryExecutor(transaction, bindings, services.systemTables());
    }
}
