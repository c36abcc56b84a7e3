/**
 * The query operators that pull rows from tables through the {@code spi}: scans and seeks,
 * filters and projections, joins, aggregation, sorting, set operations, the system tables
 * ({@code materialized_views()}, {@code schema()}, …), {@code explain}'s plan printer and the plan
 * cache of prepared queries. {@link io.derive.engine.exec.query.QueryExecutor} runs a plan in a
 * transaction.
 *
 * <p>Reads only; writing is {@code exec.write}'s.
 */
package io.derive.engine.exec.query;
