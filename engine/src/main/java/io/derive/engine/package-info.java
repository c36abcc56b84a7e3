/**
 * The engine's assembly: {@link io.derive.engine.Derive} opens a {@link io.derive.engine.api.Database}
 * from a {@link io.derive.engine.DatabaseConfig}, wiring the table modules, the execution
 * services, the materialized-view manager and, for a durable database, the rehydrate.
 *
 * <p>It is the only package allowed to depend on every other; nothing in the engine depends on
 * it. Embedders use it to open a database and {@code api} for everything after that.
 */
package io.derive.engine;
