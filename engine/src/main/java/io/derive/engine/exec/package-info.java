/**
 * The session: {@link io.derive.engine.exec.EngineSession} runs a statement from text to
 * {@link io.derive.engine.api.Result} — parse, statement savepoint, dispatch to the query, DML or
 * DDL executors, end-of-statement work — and keeps the session's transaction, SQL savepoints,
 * pragmas and the DDL transaction policy.
 *
 * <p>The top of the execution layer: it depends on its subpackages, which never depend on it.
 * Below it, in data-path order: {@code exec.expr} (expression evaluation), {@code exec.query}
 * (operators), {@code exec.context} (what a statement runs with), {@code exec.write} (the row
 * writer and constraint runtime), {@code exec.dml} and {@code exec.ddl}.
 */
package io.derive.engine.exec;
