package io.derive.engine.plan.functions;

import io.derive.engine.types.SqlType;

import java.util.function.Function;

/** Short ways for the function families to declare a {@link ScalarFunction}. */
final class Definitions {
    private Definitions() {
    }

    /** Deterministic, and NULL in any argument gives NULL. */
    static ScalarFunction strict(String name, int min, int max, SqlType type, Function<Object[], Object> impl) {
        return new ScalarFunction(name, min, max, true, true, type, impl);
    }

    /** Deterministic, and sees NULL arguments itself. */
    static ScalarFunction nullAware(String name, int min, int max, SqlType type, Function<Object[], Object> impl) {
        return new ScalarFunction(name, min, max, true, false, type, impl);
    }

    /** Gives a different result on each call; sees NULL arguments itself. */
    static ScalarFunction nonDeterministic(String name, int min, int max, SqlType type, Function<Object[], Object> impl) {
        return new ScalarFunction(name, min, max, false, false, type, impl);
    }
}
