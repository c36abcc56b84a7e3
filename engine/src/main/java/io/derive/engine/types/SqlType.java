package io.derive.engine.types;

import io.derive.engine.api.DeriveException;
import io.derive.engine.types.TemporalValue;
import io.derive.engine.types.TextValue;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.Locale;

/**
 * The declared column types (semantics §1) and how a value is coerced to each on write.
 * {@link #DATE}, {@link #TIME} and {@link #TIMESTAMP} hold {@link LocalDate}, {@link LocalTime}
 * and {@link LocalDateTime}, written as such or as ISO-8601 text ({@link TemporalValue}).
 * {@link #ANY} is the type of an expression whose type is not known statically.
 */
public enum SqlType {
    INTEGER, REAL, TEXT, BLOB, BOOLEAN, NUMERIC, DATE, TIME, TIMESTAMP, ANY;

    /** The type a declared type name denotes, aliases included; {@code null} for an unknown name. */
    public static SqlType fromName(String name) {
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "integer", "int", "bigint", "smallint", "tinyint" -> INTEGER;
            case "real", "double", "float" -> REAL;
            case "text", "varchar", "char", "clob", "string" -> TEXT;
            case "blob" -> BLOB;
            case "boolean", "bool" -> BOOLEAN;
            case "numeric", "decimal" -> NUMERIC;
            case "date" -> DATE;
            case "time" -> TIME;
            case "timestamp", "datetime" -> TIMESTAMP;
            default -> null;
        };
    }

    public String sqlName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The value as stored in a column of this type.
     *
     * @param column the column, for the error message ({@code t.x})
     * @throws DeriveException naming the column when the value has no representation in the type
     */
    public Object coerce(Object value, String column) {
        if (value == null || this == ANY) {
            return value;
        }
        Object coerced = switch (this) {
            case INTEGER -> toInteger(value);
            case REAL -> toReal(value);
            case TEXT -> toText(value);
            case BLOB -> value instanceof byte[] ? value : null;
            case BOOLEAN -> toBoolean(value);
            case NUMERIC -> toNumeric(value);
            case DATE -> toDate(value);
            case TIME -> toTime(value);
            case TIMESTAMP -> toTimestamp(value);
            case ANY -> value;
        };
        if (coerced == null) {
            throw new DeriveException(DeriveException.DATA, "cannot store " + describe(value)
                    + " in column " + column + " of type " + sqlName());
        }
        return coerced;
    }

    /**
     * The Java value of a value produced by an external caller (a parameter): ints widen to long,
     * {@code java.sql} dates, times and timestamps become their {@code java.time} values.
     */
    public static Object normalize(Object value) {
        if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
            return ((Number) value).longValue();
        }
        if (value instanceof Float f) {
            return f.doubleValue();
        }
        if (value instanceof java.math.BigInteger b) {
            return new BigDecimal(b);
        }
        if (value instanceof Character c) {
            return c.toString();
        }
        // JDBC's date types, which embedders in a Jakarta EE container often hold, as java.time values.
        if (value instanceof java.sql.Date d) {
            return d.toLocalDate();
        }
        if (value instanceof java.sql.Time t) {
            return t.toLocalTime();
        }
        if (value instanceof java.sql.Timestamp ts) {
            return ts.toLocalDateTime();
        }
        return value;
    }

    private static Object toInteger(Object v) {
        if (v instanceof Long) {
            return v;
        }
        if (v instanceof Boolean b) {
            return b ? 1L : 0L;
        }
        if (v instanceof Double d) {
            return d == Math.rint(d) && Math.abs(d) < 9.2e18 ? (Object) d.longValue() : null;
        }
        if (v instanceof BigDecimal d) {
            try {
                return d.longValueExact();
            } catch (ArithmeticException e) {
                return null;
            }
        }
        if (v instanceof String s) {
            try {
                return Long.parseLong(s.trim());
            } catch (NumberFormatException e) {
                return null;
            }
        }
        return null;
    }

    private static Object toReal(Object v) {
        if (v instanceof Double) {
            return v;
        }
        if (v instanceof Number n) {
            return n.doubleValue();
        }
        if (v instanceof Boolean b) {
            return b ? 1.0 : 0.0;
        }
        if (v instanceof String s) {
            try {
                return Double.parseDouble(s.trim());
            } catch (NumberFormatException e) {
                return null;
            }
        }
        return null;
    }

    private static Object toText(Object v) {
        if (v instanceof String) {
            return v;
        }
        return v instanceof byte[] ? null : TextValue.of(v);
    }

    private static Object toBoolean(Object v) {
        if (v instanceof Boolean) {
            return v;
        }
        if (v instanceof Long l) {
            return l == 0 ? Boolean.FALSE : l == 1 ? Boolean.TRUE : null;
        }
        if (v instanceof String s) {
            return switch (s.trim().toLowerCase(Locale.ROOT)) {
                case "true", "1" -> Boolean.TRUE;
                case "false", "0" -> Boolean.FALSE;
                default -> null;
            };
        }
        return null;
    }

    private static Object toNumeric(Object v) {
        if (v instanceof BigDecimal) {
            return v;
        }
        if (v instanceof Long l) {
            return BigDecimal.valueOf(l);
        }
        if (v instanceof Double d) {
            return Double.isFinite(d) ? BigDecimal.valueOf(d) : null;
        }
        if (v instanceof String s) {
            try {
                return new BigDecimal(s.trim());
            } catch (NumberFormatException e) {
                return null;
            }
        }
        return null;
    }

    private static Object toDate(Object v) {
        if (v instanceof LocalDate) {
            return v;
        }
        if (v instanceof LocalDateTime ts) {
            // Only a timestamp at midnight converts without losing its time of day.
            return ts.toLocalTime().equals(LocalTime.MIDNIGHT) ? ts.toLocalDate() : null;
        }
        return v instanceof String s ? TemporalValue.parseDate(s) : null;
    }

    private static Object toTime(Object v) {
        if (v instanceof LocalTime) {
            return v;
        }
        return v instanceof String s ? TemporalValue.parseTime(s) : null;
    }

    private static Object toTimestamp(Object v) {
        if (v instanceof LocalDateTime) {
            return v;
        }
        if (v instanceof LocalDate d) {
            return d.atStartOfDay();
        }
        return v instanceof String s ? TemporalValue.parseTimestamp(s) : null;
    }

    private static String describe(Object v) {
        if (v instanceof String s) {
            return "text value '" + (s.length() > 40 ? s.substring(0, 40) + "…" : s) + "'";
        }
        if (v instanceof byte[] b) {
            return "a blob of " + b.length + " bytes";
        }
        return "value " + v;
    }
}
