package io.derive.engine.exec;

import io.derive.engine.txn.Transaction;

/**
 * Everything one statement runs with.
 *
 * @param transaction the transaction it runs in (its own, in autocommit)
 * @param parameters  the values bound to its parameters
 * @param sql         its text, which the AST's spans point into
 * @param services    the database-wide services
 */
public record ExecutionContext(Transaction transaction, Parameters parameters, String sql, EngineServices services) {

    public QueryExecutor queries() {
        return new QueryExecutor(transaction, parameters, services.systemTables());
    }
}
