/**
 * What a statement runs with: its {@link io.derive.engine.exec.context.ExecutionContext}
 * (transaction, parameters, pragmas, the work it leaves for its end), the database-wide
 * {@link io.derive.engine.exec.context.EngineServices}, schema-change events, and the ports the
 * executors call without knowing who implements them:
 * {@link io.derive.engine.exec.context.MaterializedViewOperations} (implemented by {@code mv}) and
 * {@link io.derive.engine.exec.context.Rehydration} (by {@code durable}).
 *
 * <p>Above the operators, whose query service it hands out; below the writers and executors that
 * take it.
 */
package io.derive.engine.exec.context;
