/**
 * INSERT, UPDATE and DELETE: the executor that turns a bound statement into row writes,
 * conflict clauses ({@code or …}, upsert), {@code returning}, and writes through views and
 * materialized views.
 */
package io.derive.engine.exec.dml;
