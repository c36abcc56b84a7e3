package io.derive.derby;

import io.derive.engine.api.DeriveException;
import io.derive.engine.types.SqlType;
import io.derive.engine.types.ValueOrder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TimeZone;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Every engine type through a real Derby column: what goes in comes back identical, or fails as DATA. */
class ColumnCodecDerbyTest {
    private static final int MAX = ColumnCodec.MAX_LENGTH;

    private EmbeddedDerbyDatabase db;
    private Connection c;

    @BeforeEach
    void open() {
        db = EmbeddedDerbyDatabase.openInMemory("codecTest-" + UUID.randomUUID());
        c = db.connection();
    }

    @AfterEach
    void close() throws SQLException {
        c.close();
        db.close();
    }

    @Test
    void derbyColumnTypesAreNativeWhereExactAndTextOrBitDataElsewhere() {
        assertThat(ColumnCodec.of(SqlType.INTEGER).derbyType()).isEqualTo("BIGINT");
        assertThat(ColumnCodec.of(SqlType.BOOLEAN).derbyType()).isEqualTo("BOOLEAN");
        assertThat(ColumnCodec.of(SqlType.TEXT).derbyType()).isEqualTo("VARCHAR(32672)");
        assertThat(ColumnCodec.of(SqlType.BLOB).derbyType()).isEqualTo("VARCHAR(32672) FOR BIT DATA");
        assertThat(ColumnCodec.of(SqlType.ANY).derbyType()).isEqualTo("VARCHAR(32672) FOR BIT DATA");
        assertThat(ColumnCodec.of(SqlType.NUMERIC).derbyType()).isEqualTo("VARCHAR(32672)");
        assertThat(ColumnCodec.of(SqlType.REAL).derbyType()).startsWith("VARCHAR(");
        assertThat(ColumnCodec.of(SqlType.DATE).derbyType()).startsWith("VARCHAR(");
        assertThat(ColumnCodec.of(SqlType.TIME).derbyType()).startsWith("VARCHAR(");
        assertThat(ColumnCodec.of(SqlType.TIMESTAMP).derbyType()).startsWith("VARCHAR(");
        assertThat(ColumnCodec.of(SqlType.TEXT).type()).isEqualTo(SqlType.TEXT);
    }

    @Test
    void integersRoundTripIncludingTheExtremes() throws SQLException {
        assertRoundTrip(SqlType.INTEGER, Long.MIN_VALUE, -1L, 0L, 1L, Long.MAX_VALUE);
    }

    @Test
    void realsRoundTripBitForBitNegativeZeroInfinitiesAndSubnormalsIncluded() throws SQLException {
        assertRoundTrip(SqlType.REAL, -0.0, 0.0, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.MIN_VALUE,
                1e-310, -Double.MAX_VALUE, Double.MAX_VALUE, 0.1, 1.0 / 3, 123456789.125, 1e300);
    }

    @Test
    void textsRoundTripEmptyNulCharactersSurrogatesTrailingSpacesAndTheLongestAllowed() throws SQLException {
        assertRoundTrip(SqlType.TEXT, "", " ", "a  ", "a\u0000b", "\u0000", "\ud83d\ude00", "\ud800 lone \udfff", "\uffff",
                "é".repeat(MAX), "x".repeat(MAX));
    }

    @Test
    void blobsRoundTripEmptyTrailing0x20BytesEveryByteAndTheLongestAllowed() throws SQLException {
        byte[] everyByte = new byte[256];
        for (int i = 0; i < everyByte.length; i++) {
            everyByte[i] = (byte) i;
        }
        byte[] longest = new byte[MAX];
        Arrays.fill(longest, (byte) 0x20);
        assertRoundTrip(SqlType.BLOB, new byte[0], new byte[] {0}, new byte[] {1, 0x20, 0x20}, everyByte, longest);
    }

    @Test
    void booleansRoundTrip() throws SQLException {
        assertRoundTrip(SqlType.BOOLEAN, true, false);
    }

    @Test
    void numericsRoundTripWithTheirScaleAndBeyondDerbyDecimalsDigits() throws SQLException {
        assertRoundTrip(SqlType.NUMERIC, new BigDecimal("1.50"), new BigDecimal("1.5"), new BigDecimal("1E+3"),
                new BigDecimal("-0.000"), new BigDecimal("0E-10"), new BigDecimal("-12345678901234567890123456789012345678.9"),
                new BigDecimal("1E-400"), new BigDecimal("9".repeat(1000)), new BigDecimal(0.1));
    }

    @Test
    void datesRoundTripYearZeroTheJulianGapAndYearsDerbyDatesCannotHold() throws SQLException {
        assertRoundTrip(SqlType.DATE, LocalDate.of(0, 1, 1), LocalDate.of(1, 1, 1), LocalDate.of(1582, 10, 10),
                LocalDate.of(2024, 2, 29), LocalDate.of(9999, 12, 31), LocalDate.of(10000, 1, 1), LocalDate.MIN, LocalDate.MAX);
    }

    @Test
    void timesRoundTripToTheNanosecond() throws SQLException {
        assertRoundTrip(SqlType.TIME, LocalTime.MIDNIGHT, LocalTime.MAX, LocalTime.of(12, 0, 0, 500_000_000),
                LocalTime.of(1, 2, 3, 1), LocalTime.NOON);
    }

    @Test
    void timestampsRoundTripToTheNanosecondWhateverTheJvmTimeZone() throws SQLException {
        TimeZone zone = TimeZone.getDefault();
        TimeZone.setDefault(TimeZone.getTimeZone("Europe/Berlin"));
        try {
            assertRoundTrip(SqlType.TIMESTAMP, LocalDateTime.of(2024, 3, 31, 2, 30), // a gap in Berlin's clocks
                    LocalDateTime.of(1582, 10, 10, 1, 2, 3, 1), LocalDateTime.of(0, 1, 1, 0, 0),
                    LocalDateTime.of(9999, 12, 31, 23, 59, 59, 999_999_999), LocalDateTime.of(10000, 1, 1, 0, 0),
                    LocalDateTime.MIN, LocalDateTime.MAX);
        } finally {
            TimeZone.setDefault(zone);
        }
    }

    @Test
    void anyColumnRoundTripsEveryEngineValueClass() throws SQLException {
        assertRoundTrip(SqlType.ANY, Long.MIN_VALUE, 7L, -0.0, Double.NEGATIVE_INFINITY, new BigDecimal("1.50"),
                new BigDecimal("-1E+400"), new BigDecimal("9".repeat(100)), true, false, "", "a\u0000\ud800\ud83d\ude00",
                new byte[0], new byte[] {0x20}, LocalDate.of(0, 1, 1), LocalDate.MAX, LocalTime.of(23, 59, 59, 999_999_999),
                LocalDateTime.of(2024, 3, 31, 2, 30, 0, 1), "y".repeat(MAX - 3));
    }

    @ParameterizedTest
    @EnumSource(SqlType.class)
    void nullRoundTripsInEveryType(SqlType type) throws SQLException {
        assertRoundTrip(type, (Object) null);
    }

    @Test
    void derbyToolsReadDatesTimesRealsAndNumericsAsTheirCanonicalText() throws SQLException {
        assertThat(storedText(SqlType.DATE, LocalDate.of(2024, 1, 31))).isEqualTo("2024-01-31");
        assertThat(storedText(SqlType.TIME, LocalTime.of(12, 0, 0, 500_000_000))).isEqualTo("12:00:00.5");
        assertThat(storedText(SqlType.TIMESTAMP, LocalDateTime.of(2024, 1, 31, 8, 0))).isEqualTo("2024-01-31 08:00:00");
        assertThat(storedText(SqlType.REAL, -0.0)).isEqualTo("-0.0");
        assertThat(storedText(SqlType.NUMERIC, new BigDecimal("1.50"))).isEqualTo("1.50");
    }

    @Test
    void aValueLongerThanTheLimitIsADataErrorNamingTheColumnAndTheLimit() throws SQLException {
        assertTooLong(SqlType.TEXT, "x".repeat(MAX + 1));
        assertTooLong(SqlType.BLOB, new byte[MAX + 1]);
        assertTooLong(SqlType.NUMERIC, new BigDecimal("1".repeat(MAX + 1)));
        assertTooLong(SqlType.ANY, "y".repeat(MAX));
        assertTooLong(SqlType.ANY, "\u4e2d".repeat(30_000)); // beyond modified UTF-8's 65535 bytes
        assertTooLong(SqlType.ANY, new byte[MAX]);
    }

    @Test
    void aValueOfAnotherClassThanTheColumnTypesIsAnInternalError() throws SQLException {
        table(SqlType.INTEGER);
        try (PreparedStatement p = c.prepareStatement("insert into t values (1, ?)")) {
            assertThatThrownBy(() -> ColumnCodec.of(SqlType.INTEGER).set(p, 1, "1", "t.v"))
                    .isInstanceOfSatisfying(DeriveException.class, e -> assertThat(e.code()).isEqualTo(DeriveException.INTERNAL))
                    .hasMessageContaining("t.v").hasMessageContaining("java.lang.String");
            assertThatThrownBy(() -> ColumnCodec.of(SqlType.ANY).set(p, 1, 1, "t.v"))
                    .isInstanceOfSatisfying(DeriveException.class, e -> assertThat(e.code()).isEqualTo(DeriveException.INTERNAL))
                    .hasMessageContaining("java.lang.Integer");
        }
    }

    private void assertRoundTrip(SqlType type, Object... values) throws SQLException {
        List<Object> read = roundTrip(type, values);
        assertThat(read).hasSameSizeAs(values);
        for (int i = 0; i < values.length; i++) {
            Object expected = values[i];
            Object actual = read.get(i);
            assertThat(ValueOrder.identical(expected, actual))
                    .as("%s: wrote %s, read %s", type, KeyValues.describe(expected), KeyValues.describe(actual)).isTrue();
        }
    }

    private List<Object> roundTrip(SqlType type, Object... values) throws SQLException {
        ColumnCodec codec = ColumnCodec.of(type);
        table(type);
        try (PreparedStatement p = c.prepareStatement("insert into t values (?, ?)")) {
            for (int i = 0; i < values.length; i++) {
                p.setInt(1, i);
                codec.set(p, 2, values[i], "t.v");
                p.executeUpdate();
            }
        }
        List<Object> read = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("select v from t order by id")) {
            while (rs.next()) {
                read.add(codec.get(rs, 1));
            }
        }
        return read;
    }

    private String storedText(SqlType type, Object value) throws SQLException {
        roundTrip(type, value);
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("select v from t")) {
            rs.next();
            return rs.getString(1);
        }
    }

    private void assertTooLong(SqlType type, Object value) throws SQLException {
        table(type);
        try (PreparedStatement p = c.prepareStatement("insert into t values (1, ?)")) {
            assertThatThrownBy(() -> ColumnCodec.of(type).set(p, 1, value, "t.v"))
                    .as("%s", type)
                    .isInstanceOfSatisfying(DeriveException.class, e -> assertThat(e.code()).isEqualTo(DeriveException.DATA))
                    .hasMessageContaining("t.v").hasMessageContaining(String.valueOf(MAX));
        }
    }

    private void table(SqlType type) throws SQLException {
        try (Statement s = c.createStatement()) {
            try {
                s.execute("drop table t");
            } catch (SQLException absent) {
                // the first table of the test
            }
            s.execute("create table t (id int primary key, v " + ColumnCodec.of(type).derbyType() + ")");
        }
    }
}
