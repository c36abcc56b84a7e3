package io.derive.engine.exec.context;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * State one statement accumulates for work at its end (materialized-view maintenance deferred
 * to the end of the statement). It lives exactly as long as the statement's
 * {@link ExecutionContext}, so nothing outlives a failed statement.
 */
public final class StatementWork {
    private final Map<Class<?>, Object> parts = new HashMap<>();

    /** The part of the given type, created on first use. */
    public <T> T part(Class<T> type, Supplier<T> create) {
        return type.cast(parts.computeIfAbsent(type, t -> create.get()));
    }

    /** Forgets the part of the given type (its work was handed on). */
    public void remove(Class<?> type) {
        parts.remove(type);
    }

    /** The part of the given type if one was created. */
    public <T> T existing(Class<T> type) {
        return type.cast(parts.get(type));
    }
}
