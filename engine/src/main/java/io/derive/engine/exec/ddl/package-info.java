/**
 * Schema statements: CREATE/DROP of tables, views and indexes, ALTER TABLE (columns,
 * constraints, renames and their propagation into dependent bodies and checks), ALTER
 * MATERIALIZED VIEW, ANALYZE, and the indexes the engine creates to support constraints.
 *
 * <p>Materialized-view registration itself is {@code mv}'s, reached through the context's port.
 */
package io.derive.engine.exec.ddl;
