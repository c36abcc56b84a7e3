package io.derive.engine.plan.functions;

import io.derive.engine.types.SqlType;

/**
 * What a function's definition may know of one argument of a call while the call is planned:
 * its type and, for a literal, its value. The planner's bound expressions are arguments, so the
 * function library needs no view of the planner's own types.
 */
public interface Argument {

    /** The argument's type; {@link SqlType#ANY} when it is known only at run time. */
    SqlType type();

    /** True when the argument is a literal, whose value {@link #literalValue()} then gives. */
    default boolean isLiteral() {
        return false;
    }

    /** The literal's value (null for a NULL literal); null for an argument that is no literal. */
    default Object literalValue() {
        return null;
    }
}
