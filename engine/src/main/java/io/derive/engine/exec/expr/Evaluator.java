package io.derive.engine.exec.expr;

/** A compiled expression: evaluates over one input row and the statement's parameters. */
@FunctionalInterface
public interface Evaluator {
    Object eval(Object[] row, Parameters parameters);
}
