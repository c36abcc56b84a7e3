/**
 * The built-in scalar function library (text, math, date and time, formatting, value functions)
 * and its registry: each function's arity, determinism, typing and implementation.
 *
 * <p>The binder looks functions up here; a definition sees the call's arguments only as
 * {@link io.derive.engine.plan.functions.Argument}s, so this package does not depend on
 * {@code plan}.
 */
package io.derive.engine.plan.functions;
