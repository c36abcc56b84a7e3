package io.derive.engine.plan.functions;

import io.derive.engine.types.SqlType;

import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * A built-in scalar function: its signature, what the planner must know of it, and its
 * implementation over already evaluated arguments. An implementation never throws anything but
 * a {@link io.derive.engine.api.DeriveException}, whatever its arguments.
 *
 * @param minArguments   fewest arguments accepted
 * @param maxArguments   most arguments accepted ({@link Integer#MAX_VALUE} for variadic)
 * @param deterministic  false for functions whose result may differ between calls ({@code random})
 * @param nullPropagating true when any NULL argument makes the result NULL without a call
 * @param resultType     the type of the result, {@link SqlType#ANY} when it depends on arguments
 * @param readsClock     for a function that is deterministic in general, whether one call of it
 *                       reads the current time instead ({@code date('now')}, {@code date()}),
 *                       which makes that call non-deterministic
 * @param typing         the type of a call's result given its bound arguments; a column that
 *                       stores the result is of this type, so it must hold every value the call
 *                       can return ({@link SqlType#ANY} when no narrower type does)
 */
public record ScalarFunction(String name, int minArguments, int maxArguments, boolean deterministic,
                             boolean nullPropagating, SqlType resultType, Function<Object[], Object> implementation,
                             Predicate<List<? extends Argument>> readsClock, Function<List<? extends Argument>, SqlType> typing) {

    /**
     * A function whose determinism does not depend on its arguments, of type {@code resultType},
     * or for {@link SqlType#ANY} of the type all its arguments share.
     */
    public ScalarFunction(String name, int minArguments, int maxArguments, boolean deterministic,
                          boolean nullPropagating, SqlType resultType, Function<Object[], Object> implementation) {
        this(name, minArguments, maxArguments, deterministic, nullPropagating, resultType, implementation, args -> false,
                args -> resultType == SqlType.ANY ? sharedType(args) : resultType);
    }

    /** Whether a call with these (bound) arguments always gives the same result for the same values. */
    public boolean isDeterministicFor(List<? extends Argument> arguments) {
        return deterministic && !readsClock.test(arguments);
    }

    public SqlType resultTypeFor(List<? extends Argument> arguments) {
        return typing.apply(arguments);
    }

    /** This function, reading the clock in the calls that {@code reads} picks. */
    public ScalarFunction readingClockWhen(Predicate<List<? extends Argument>> reads) {
        return new ScalarFunction(name, minArguments, maxArguments, deterministic, nullPropagating, resultType,
                implementation, reads, typing);
    }

    /** This function, with its result typed by {@code rule}. */
    public ScalarFunction typedBy(Function<List<? extends Argument>, SqlType> rule) {
        return new ScalarFunction(name, minArguments, maxArguments, deterministic, nullPropagating, resultType,
                implementation, readsClock, rule);
    }

    public ScalarFunction withImplementation(Function<Object[], Object> replacement) {
        return new ScalarFunction(name, minArguments, maxArguments, deterministic, nullPropagating, resultType,
                replacement, readsClock, typing);
    }

    /** The type of every given expression when they all have the same one, else {@link SqlType#ANY}. */
    public static SqlType sharedType(List<? extends Argument> expressions) {
        if (expressions.isEmpty()) {
            return SqlType.ANY;
        }
        SqlType first = expressions.get(0).type();
        for (Argument e : expressions) {
            if (e.type() != first) {
                return SqlType.ANY;
            }
        }
        return first;
    }
}
