package io.derive.derby;

import io.derive.engine.api.DeriveException;
import io.derive.engine.types.SqlType;
import io.derive.engine.types.TemporalValue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UTFDataFormatException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;

/**
 * How one engine column is stored in a Derby column that a person reading the table with Derby's
 * tools can make sense of, every value of the column's type reading back identical
 * ({@link io.derive.engine.types.ValueOrder#identical}).
 *
 * <p>A native Derby type serves only where it holds every engine value of the type exactly: BIGINT,
 * BOOLEAN, VARCHAR for text, VARCHAR FOR BIT DATA for blobs. The other types are stored as their
 * canonical text, because the Derby type would change values:
 * <ul>
 * <li>real: DOUBLE turns −0.0 into 0.0 and refuses infinities; stored as {@link Double#toString};
 * <li>numeric: DECIMAL stops at 31 digits; stored as {@link BigDecimal#toString}, scale kept;
 * <li>date, time, timestamp: DATE and TIMESTAMP refuse the year 0000 that engine dates allow,
 * TIMESTAMP moves times through the JVM's time zone (a daylight-saving gap) and the Julian calendar
 * (1582-10-10 reads as 1582-10-20), TIME drops fractions of a second; stored as ISO text.
 * </ul>
 * A column of type {@code any} holds a tagged binary serialization of whatever value it has.
 * Instances are immutable and thread-safe.
 */
public final class ColumnCodec {
    /** The most characters of a text, and bytes of a blob or a serialized {@code any} value, a column holds. */
    public static final int MAX_LENGTH = 32672;

    // Tags of a serialized any value; letters, so that a hex dump shows the type.
    private static final int TAG_LONG = 'I';
    private static final int TAG_DOUBLE = 'R';
    private static final int TAG_DECIMAL = 'N';
    private static final int TAG_BOOLEAN = 'B';
    private static final int TAG_STRING = 'S';
    private static final int TAG_BYTES = 'X';
    private static final int TAG_DATE = 'D';
    private static final int TAG_TIME = 'T';
    private static final int TAG_TIMESTAMP = 'P';

    private static final Map<SqlType, ColumnCodec> CODECS = new EnumMap<>(SqlType.class);

    static {
        for (SqlType type : SqlType.values()) {
            CODECS.put(type, new ColumnCodec(type));
        }
    }

    private final SqlType type;

    private ColumnCodec(SqlType type) {
        this.type = type;
    }

    /** The codec of a column of this type. */
    public static ColumnCodec of(SqlType type) {
        return CODECS.get(type);
    }

    public SqlType type() {
        return type;
    }

    /** The Derby column type, as written in {@code create table}. */
    public String derbyType() {
        return switch (type) {
            case INTEGER -> "BIGINT";
            case REAL -> "VARCHAR(32)";
            case TEXT, NUMERIC -> "VARCHAR(" + MAX_LENGTH + ")";
            case BLOB, ANY -> "VARCHAR(" + MAX_LENGTH + ") FOR BIT DATA";
            case BOOLEAN -> "BOOLEAN";
            case DATE -> "VARCHAR(16)"; // LocalDate.toString, years of up to nine digits and a sign
            case TIME -> "VARCHAR(18)"; // HH:MM:SS.nnnnnnnnn
            case TIMESTAMP -> "VARCHAR(35)";
        };
    }

    /**
     * Binds a value of this column's type (as {@link SqlType#coerce} leaves it; null for NULL).
     *
     * @param column the column, for error messages ({@code t.x})
     * @throws DeriveException with code DATA, naming the column and the limit, if a text has more
     *                         than {@link #MAX_LENGTH} characters or a blob, a numeric's text or a
     *                         serialized {@code any} value more than {@link #MAX_LENGTH} bytes or
     *                         characters; with code INTERNAL if the value is not of the type's class
     * @throws SQLException    as the statement reports it
     */
    public void set(PreparedStatement ps, int index, Object value, String column) throws SQLException {
        if (value == null) {
            ps.setNull(index, jdbcType());
            return;
        }
        switch (type) {
            case INTEGER -> ps.setLong(index, as(Long.class, value, column));
            case REAL -> ps.setString(index, Double.toString(as(Double.class, value, column)));
            case TEXT -> ps.setString(index, limited(as(String.class, value, column), "a text", column));
            case BLOB -> ps.setBytes(index, limited(as(byte[].class, value, column), "a blob", column));
            case BOOLEAN -> ps.setBoolean(index, as(Boolean.class, value, column));
            case NUMERIC -> ps.setString(index, limited(as(BigDecimal.class, value, column).toString(), "a numeric", column));
            case DATE -> ps.setString(index, as(LocalDate.class, value, column).toString());
            case TIME -> ps.setString(index, TemporalValue.render(as(LocalTime.class, value, column)));
            case TIMESTAMP -> ps.setString(index, timestampText(as(LocalDateTime.class, value, column)));
            case ANY -> ps.setBytes(index, limited(serialize(value, column), "a serialized value", column));
        }
    }

    /**
     * Checks that {@link #set} will take {@code value}, without binding it: the Derby host checks
     * each value when its statement writes it and binds it later, in the transaction's flush.
     *
     * @throws DeriveException as {@link #set} does
     */
    public void check(Object value, String column) {
        if (value == null) {
            return;
        }
        switch (type) {
            case INTEGER -> as(Long.class, value, column);
            case REAL -> as(Double.class, value, column);
            case TEXT -> limited(as(String.class, value, column), "a text", column);
            case BLOB -> limited(as(byte[].class, value, column), "a blob", column);
            case BOOLEAN -> as(Boolean.class, value, column);
            case NUMERIC -> limited(as(BigDecimal.class, value, column).toString(), "a numeric", column);
            case DATE -> as(LocalDate.class, value, column);
            case TIME -> as(LocalTime.class, value, column);
            case TIMESTAMP -> as(LocalDateTime.class, value, column);
            case ANY -> limited(serialize(value, column), "a serialized value", column);
        }
    }

    /**
     * Reads back a value that {@link #set} stored: identical to it, or null for NULL.
     *
     * @throws SQLException as the result set reports it
     */
    public Object get(ResultSet rs, int index) throws SQLException {
        switch (type) {
            case INTEGER -> {
                long v = rs.getLong(index);
                return rs.wasNull() ? null : v;
            }
            case BOOLEAN -> {
                boolean v = rs.getBoolean(index);
                return rs.wasNull() ? null : v;
            }
            case BLOB -> {
                return rs.getBytes(index);
            }
            case ANY -> {
                byte[] bytes = rs.getBytes(index);
                return bytes == null ? null : deserialize(bytes);
            }
            default -> {
                String text = rs.getString(index);
                return text == null ? null : fromText(text);
            }
        }
    }

    private Object fromText(String text) {
        return switch (type) {
            case REAL -> Double.valueOf(text);
            case NUMERIC -> new BigDecimal(text);
            case DATE -> LocalDate.parse(text);
            case TIME -> LocalTime.parse(text);
            case TIMESTAMP -> {
                int space = text.indexOf(' ');
                yield LocalDateTime.of(LocalDate.parse(text.substring(0, space)), LocalTime.parse(text.substring(space + 1)));
            }
            default -> text;
        };
    }

    private int jdbcType() {
        return switch (type) {
            case INTEGER -> Types.BIGINT;
            case BOOLEAN -> Types.BOOLEAN;
            case BLOB, ANY -> Types.VARBINARY;
            default -> Types.VARCHAR;
        };
    }

    /** The canonical text of TemporalValue, but with a date text that also holds years beyond 0000–9999. */
    private static String timestampText(LocalDateTime ts) {
        return ts.toLocalDate() + " " + TemporalValue.render(ts.toLocalTime());
    }

    private static byte[] serialize(Object value, String column) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            if (value instanceof Long l) {
                out.writeByte(TAG_LONG);
                out.writeLong(l);
            } else if (value instanceof Double d) {
                out.writeByte(TAG_DOUBLE);
                out.writeLong(Double.doubleToRawLongBits(d)); // keeps −0.0
            } else if (value instanceof BigDecimal d) {
                out.writeByte(TAG_DECIMAL);
                out.writeInt(d.scale());
                out.write(d.unscaledValue().toByteArray());
            } else if (value instanceof Boolean b) {
                out.writeByte(TAG_BOOLEAN);
                out.writeBoolean(b);
            } else if (value instanceof String s) {
                out.writeByte(TAG_STRING);
                out.writeUTF(s); // modified UTF-8: keeps \u0000 and unpaired surrogates
            } else if (value instanceof byte[] b) {
                out.writeByte(TAG_BYTES);
                out.write(b);
            } else if (value instanceof LocalDate d) {
                out.writeByte(TAG_DATE);
                out.writeLong(d.toEpochDay());
            } else if (value instanceof LocalTime t) {
                out.writeByte(TAG_TIME);
                out.writeLong(t.toNanoOfDay());
            } else if (value instanceof LocalDateTime ts) {
                out.writeByte(TAG_TIMESTAMP);
                out.writeLong(ts.toLocalDate().toEpochDay());
                out.writeLong(ts.toLocalTime().toNanoOfDay());
            } else {
                throw new DeriveException(DeriveException.INTERNAL,
                        "cannot store a value of Java class " + value.getClass().getName() + " in column " + column);
            }
        } catch (UTFDataFormatException tooLong) {
            throw tooLong(column, "a serialized value", "more than 65535 bytes");
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a ByteArrayOutputStream does not fail
        }
        return bytes.toByteArray();
    }

    private static Object deserialize(byte[] bytes) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
            int tag = in.readUnsignedByte();
            return switch (tag) {
                case TAG_LONG -> in.readLong();
                case TAG_DOUBLE -> Double.longBitsToDouble(in.readLong());
                case TAG_DECIMAL -> {
                    int scale = in.readInt();
                    yield new BigDecimal(new BigInteger(in.readAllBytes()), scale);
                }
                case TAG_BOOLEAN -> in.readBoolean();
                case TAG_STRING -> in.readUTF();
                case TAG_BYTES -> in.readAllBytes();
                case TAG_DATE -> LocalDate.ofEpochDay(in.readLong());
                case TAG_TIME -> LocalTime.ofNanoOfDay(in.readLong());
                case TAG_TIMESTAMP -> LocalDateTime.of(LocalDate.ofEpochDay(in.readLong()), LocalTime.ofNanoOfDay(in.readLong()));
                default -> throw new DeriveException(DeriveException.INTERNAL,
                        "not a serialized engine value: tag " + tag + " in " + Arrays.toString(Arrays.copyOf(bytes, 16)));
            };
        } catch (IOException e) {
            throw new DeriveException(DeriveException.INTERNAL, "truncated serialized engine value", e);
        }
    }

    private static String limited(String s, String what, String column) {
        if (s.length() > MAX_LENGTH) {
            throw tooLong(column, what, s.length() + " characters");
        }
        return s;
    }

    private static byte[] limited(byte[] b, String what, String column) {
        if (b.length > MAX_LENGTH) {
            throw tooLong(column, what, b.length + " bytes");
        }
        return b;
    }

    private static DeriveException tooLong(String column, String what, String size) {
        return new DeriveException(DeriveException.DATA, "value too long for column " + column + ": " + what
                + " of " + size + "; the Derby host stores at most " + MAX_LENGTH + " characters or bytes per value");
    }

    private <T> T as(Class<T> expected, Object value, String column) {
        if (!expected.isInstance(value)) {
            throw new DeriveException(DeriveException.INTERNAL, "a " + type.sqlName() + " column (" + column
                    + ") cannot hold a value of Java class " + value.getClass().getName());
        }
        return expected.cast(value);
    }
}
