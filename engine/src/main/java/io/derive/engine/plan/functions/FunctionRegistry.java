package io.derive.engine.plan.functions;

import io.derive.engine.api.DeriveException;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The built-in scalar functions, by lower-case name, gathered from their families in
 * {@code io.derive.engine.plan.functions}. {@code min} and {@code max} are here only in their
 * scalar forms (two or more arguments); with one argument the binder treats them as aggregates.
 */
public final class FunctionRegistry {
    private static final Map<String, ScalarFunction> FUNCTIONS = new HashMap<>();

    static {
        for (List<ScalarFunction> family : List.of(StringFunctions.all(), MathFunctions.all(), ValueFunctions.all(),
                FormatFunction.all(), DateTimeFunctions.all())) {
            for (ScalarFunction f : family) {
                FUNCTIONS.put(f.name(), guarded(f));
            }
        }
    }

    private FunctionRegistry() {
    }

    public static Optional<ScalarFunction> lookup(String name) {
        return Optional.ofNullable(FUNCTIONS.get(name.toLowerCase(Locale.ROOT)));
    }

    /**
     * The function with a last line of defence: whatever slips past its own argument handling
     * surfaces as a DeriveException naming the function, never as a Java exception.
     */
    private static ScalarFunction guarded(ScalarFunction f) {
        Function<Object[], Object> impl = f.implementation();
        Function<Object[], Object> safe = args -> {
            try {
                return impl.apply(args);
            } catch (DeriveException e) {
                throw e;
            } catch (RuntimeException | OutOfMemoryError e) {
                throw new DeriveException(DeriveException.DATA, f.name() + "() cannot evaluate its arguments", e);
            }
        };
        return f.withImplementation(safe);
    }
}
