package io.derive.client;

import io.derive.engine.api.DeriveException;
import io.derive.engine.api.Result;
import io.derive.engine.api.Row;

import java.util.List;

/**
 * A handle on a Derive database obtained from a {@link DeriveConnectionFactory}.
 *
 * <p>Contract:
 * <ul>
 *   <li>Parameters are positional and bind to {@code ?} markers in order; values are Java
 *       objects as described on {@link Row}.</li>
 *   <li>Each statement is atomic: when a method throws {@link DeriveException} the statement left
 *       no trace. Inside a JTA transaction the failure does not by itself roll the JTA
 *       transaction back; an uncaught {@link DeriveException} (it is unchecked) makes a
 *       container-managed transaction roll back.</li>
 *   <li>Inside a JTA transaction the transaction-control statements {@code begin},
 *       {@code commit} and {@code rollback} are refused: the transaction manager decides the
 *       outcome. Outside one they demarcate a local transaction on this connection.</li>
 *   <li>A handle is meant for one thread at a time. After {@link #close()} every method except
 *       {@code close} throws {@link DeriveException}.</li>
 * </ul>
 */
public interface DeriveConnection extends AutoCloseable {

    /**
     * Runs a write, DDL or transaction-control statement.
     *
     * @return the number of rows inserted, updated or deleted; 0 for other statements
     * @throws DeriveException for any SQL, constraint, lock or connection error
     */
    long execute(String sql, Object... params);

    /**
     * Runs a query and returns all its rows.
     *
     * @return the rows in the order the query defines (unspecified without {@code order by})
     * @throws DeriveException for any SQL or connection error
     */
    List<Row> query(String sql, Object... params);

    /**
     * Runs any statement and returns everything it produced: the column names even when there
     * are no rows, the rows, and the update count.
     *
     * @throws DeriveException for any SQL, constraint, lock or connection error
     */
    Result run(String sql, Object... params);

    /**
     * Releases the handle. Closing does not end a JTA transaction (the work stays part of it);
     * closing twice does nothing.
     */
    @Override
    void close();
}
