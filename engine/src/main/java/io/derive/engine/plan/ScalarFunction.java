package io.derive.engine.plan;

import io.derive.engine.schema.SqlType;

import java.util.function.Function;

/**
 * A built-in scalar function: its signature, what the planner must know of it, and its
 * implementation over already evaluated arguments.
 *
 * @param minArguments   fewest arguments accepted
 * @param maxArguments   most arguments accepted ({@link Integer#MAX_VALUE} for variadic)
 * @param deterministic  false for functions whose result may differ between calls ({@code random})
 * @param nullPropagating true when any NULL argument makes the result NULL without a call
 * @param resultType     the type of the result, {@link SqlType#ANY} when it depends on arguments
 */
public record ScalarFunction(String name, int minArguments, int maxArguments, boolean deterministic,
                             boolean nullPropagating, SqlType resultType, Function<Object[], Object> implementation) {
}
