package io.derive.engine.exec;

import io.derive.engine.api.DeriveException;
import io.derive.engine.schema.Numeric;
import io.derive.engine.schema.SqlType;
import io.derive.engine.schema.TextValue;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;

/** {@code cast(x as type)} and comparison affinity, as SQLite performs them. */
final class Casts {
    private Casts() {
    }

    static Object cast(Object v, SqlType target) {
        if (v == null) {
            return null;
        }
        return switch (target) {
            case INTEGER -> {
                Number n = Numeric.of(v);
                yield n instanceof Long ? n : (Object) n.longValue();
            }
            case REAL -> Numeric.of(v).doubleValue();
            case NUMERIC -> {
                Number n = Numeric.of(v);
                yield n instanceof BigDecimal ? n : n instanceof Long l ? BigDecimal.valueOf(l) : BigDecimal.valueOf(n.doubleValue());
            }
            case TEXT -> TextValue.of(v);
            case BLOB -> v instanceof byte[] ? v : TextValue.of(v).getBytes(StandardCharsets.UTF_8);
            case BOOLEAN -> Numeric.truth(v);
            case ANY -> v;
        };
    }

    /** The value converted to the column type when that loses nothing; otherwise unchanged. */
    static Object affinity(Object v, SqlType target) {
        if (v == null || v instanceof Number || v instanceof Boolean) {
            return v;
        }
        try {
            return target.coerce(v, "");
        } catch (DeriveException notConvertible) {
            return v;
        }
    }
}
