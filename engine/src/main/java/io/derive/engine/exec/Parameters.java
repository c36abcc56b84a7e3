package io.derive.engine.exec;

import io.derive.engine.api.DeriveException;
import io.derive.engine.schema.SqlType;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/** The values bound to a statement's parameters: positional (1-based) or named. */
public final class Parameters {
    private static final Parameters NONE = new Parameters(new Object[0], Map.of());

    private final Object[] positional;
    private final Map<String, Object> named;

    private Parameters(Object[] positional, Map<String, Object> named) {
        this.positional = positional;
        this.named = named;
    }

    public static Parameters none() {
        return NONE;
    }

    public static Parameters positional(Object... values) {
        Object[] normalized = new Object[values == null ? 0 : values.length];
        for (int i = 0; i < normalized.length; i++) {
            normalized[i] = SqlType.normalize(values[i]);
        }
        return new Parameters(normalized, Map.of());
    }

    public static Parameters named(Map<String, ?> values) {
        Map<String, Object> normalized = new HashMap<>();
        values.forEach((k, v) -> normalized.put(k.toLowerCase(Locale.ROOT), SqlType.normalize(v)));
        return new Parameters(new Object[0], normalized);
    }

    public Object get(int index, String name) {
        if (name != null) {
            String key = name.toLowerCase(Locale.ROOT);
            if (!named.containsKey(key)) {
                throw new DeriveException(DeriveException.DATA, "no value bound to parameter :" + name);
            }
            return named.get(key);
        }
        if (index < 1 || index > positional.length) {
            throw new DeriveException(DeriveException.DATA, "no value bound to parameter ?" + index
                    + " (" + positional.length + " given)");
        }
        return positional[index - 1];
    }
}
