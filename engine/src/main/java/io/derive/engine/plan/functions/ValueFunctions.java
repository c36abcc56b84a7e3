package io.derive.engine.plan.functions;

import io.derive.engine.schema.Numeric;
import io.derive.engine.types.Collation;
import io.derive.engine.types.SqlType;
import io.derive.engine.types.TextValue;
import io.derive.engine.types.ValueOrder;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.HexFormat;
import java.util.List;

import static io.derive.engine.plan.functions.Definitions.nullAware;

/** Functions about values themselves: their type, their SQL literal, and NULL handling. */
public final class ValueFunctions {
    private ValueFunctions() {
    }

    public static List<ScalarFunction> all() {
        return List.of(
                nullAware("typeof", 1, 1, SqlType.TEXT, a -> typeOf(a[0])),
                nullAware("quote", 1, 1, SqlType.TEXT, a -> quote(a[0])),
                nullAware("coalesce", 2, Integer.MAX_VALUE, SqlType.ANY, ValueFunctions::firstNonNull),
                nullAware("ifnull", 2, 2, SqlType.ANY, ValueFunctions::firstNonNull),
                nullAware("nullif", 2, 2, SqlType.ANY,
                        a -> a[0] != null && a[1] != null && ValueOrder.compare(a[0], a[1], Collation.BINARY) == 0 ? null : a[0])
                        .typedBy(ValueFunctions::firstType),
                nullAware("iif", 2, 3, SqlType.ANY, a -> Boolean.TRUE.equals(Numeric.truth(a[0])) ? a[1] : a.length > 2 ? a[2] : null)
                        .typedBy(args -> ScalarFunction.sharedType(args.subList(1, args.size()))),
                // Planner hints in SQLite; here they only pass their argument through.
                nullAware("likely", 1, 1, SqlType.ANY, a -> a[0]),
                nullAware("unlikely", 1, 1, SqlType.ANY, a -> a[0]),
                nullAware("likelihood", 2, 2, SqlType.ANY, a -> a[0]).typedBy(ValueFunctions::firstType));
    }

    private static SqlType firstType(List<? extends Argument> args) {
        return args.get(0).type();
    }

    /** SQLite's storage class names; Derive's own types answer with their type name. */
    private static Object typeOf(Object v) {
        if (v == null) {
            return "null";
        }
        if (v instanceof Long || v instanceof Boolean) {
            return "integer";
        }
        if (v instanceof Double) {
            return "real";
        }
        if (v instanceof BigDecimal) {
            return "numeric";
        }
        if (v instanceof String) {
            return "text";
        }
        if (v instanceof LocalDate) {
            return "date";
        }
        if (v instanceof LocalTime) {
            return "time";
        }
        if (v instanceof java.time.LocalDateTime) {
            return "timestamp";
        }
        return "blob";
    }

    /** The value as an SQL literal that reads back as the same value. */
    static String quote(Object v) {
        if (v == null) {
            return "NULL";
        }
        if (v instanceof byte[] b) {
            return "X'" + HexFormat.of().withUpperCase().formatHex(b) + "'";
        }
        if (v instanceof Number || v instanceof Boolean) {
            return TextValue.of(v);
        }
        return "'" + TextValue.of(v).replace("'", "''") + "'";
    }

    private static Object firstNonNull(Object[] a) {
        for (Object v : a) {
            if (v != null) {
                return v;
            }
        }
        return null;
    }
}
