/**
 * Expression evaluation: bound expressions compiled once per statement into
 * {@link io.derive.engine.exec.expr.Evaluator}s (no per-row tree walking), with SQLite's
 * arithmetic, casts, LIKE/GLOB matching and statement parameters.
 *
 * <p>The bottom of {@code exec}: it evaluates values and knows no table, transaction or
 * operator.
 */
package io.derive.engine.exec.expr;
