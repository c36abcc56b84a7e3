/**
 * The catalog: tables, columns, constraints, indexes, views, materialized views' derivations
 * (body, host, stale flag, statistics), the canonical DDL that stores them, and the schema
 * change listener interface. A catalog value is immutable; a transaction works on its own copy.
 *
 * <p>It sits beside the data path rather than on it: {@code plan} binds against it, {@code exec}
 * changes it. It refers to storage only through the {@code spi}'s
 * {@link io.derive.engine.spi.HostedTable}; it knows nothing of execution or maintenance.
 */
package io.derive.engine.schema;
