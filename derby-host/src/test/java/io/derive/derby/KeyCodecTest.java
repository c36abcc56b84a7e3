package io.derive.derby;

import io.derive.engine.api.DeriveException;
import io.derive.engine.spi.KeyRange;
import io.derive.engine.spi.TableShape;
import io.derive.engine.types.Collation;
import io.derive.engine.types.SqlType;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The key codec's contract on chosen values; {@link KeyCodecPropertiesTest} covers random ones. */
class KeyCodecTest {
    private static final KeyCodec BINARY = codec(Collation.BINARY, false);

    @Test
    void numbersOfEveryClassWithTheSameValueAreOneKey() {
        assertThat(List.of(BigDecimal.ONE, new BigDecimal("1.00"), new BigDecimal("0.1E1"), 1.0, Boolean.TRUE))
                .allSatisfy(v -> assertThat(encode(BINARY, v)).isEqualTo(encode(BINARY, 1L)));
        assertThat(List.of(0.0, -0.0, new BigDecimal("0E-9"), new BigDecimal("-0.000"), Boolean.FALSE))
                .allSatisfy(v -> assertThat(encode(BINARY, v)).isEqualTo(encode(BINARY, 0L)));
    }

    @Test
    void nocaseFoldsOnlyTheAsciiLetters() {
        KeyCodec nocase = codec(Collation.NOCASE, false);
        assertThat(encode(nocase, "ABC xyz")).isEqualTo(encode(nocase, "abc XYZ"));
        assertThat(encode(nocase, "\u00c9")).isNotEqualTo(encode(nocase, "\u00e9"));
        assertThat(encode(BINARY, "A")).isNotEqualTo(encode(BINARY, "a"));
    }

    @Test
    void rtrimIgnoresOnlyTrailingSpaces() {
        KeyCodec rtrim = codec(Collation.RTRIM, false);
        assertThat(encode(rtrim, "a  ")).isEqualTo(encode(rtrim, "a"));
        assertThat(encode(rtrim, "   ")).isEqualTo(encode(rtrim, ""));
        assertThat(encode(rtrim, " a")).isNotEqualTo(encode(rtrim, "a"));
        assertThat(encode(rtrim, "a\t")).isNotEqualTo(encode(rtrim, "a"));
    }

    @Test
    void aDateTimeOrTimestampIsTheSameKeyAsItsIsoText() {
        assertThat(encode(BINARY, LocalDate.of(2024, 1, 31))).isEqualTo(encode(BINARY, "2024-01-31"));
        assertThat(encode(BINARY, LocalTime.of(12, 0, 0, 500_000_000))).isEqualTo(encode(BINARY, "12:00:00.5"));
        assertThat(encode(BINARY, LocalDateTime.of(2024, 1, 31, 0, 0))).isEqualTo(encode(BINARY, "2024-01-31 00:00:00"));
        assertThat(encode(BINARY, LocalDate.of(2024, 1, 31))).isNotEqualTo(encode(BINARY, LocalDateTime.of(2024, 1, 31, 0, 0)));
    }

    @Test
    void textOrdersByUtf16CodeUnitsSoASupplementaryCharacterSortsBeforeUFFFF() {
        byte[] emoji = encode(BINARY, "\ud83d\ude00");
        byte[] last = encode(BINARY, "\uffff");
        assertThat(Arrays.compareUnsigned(emoji, last)).isNegative();
        assertThat("\ud83d\ude00".compareTo("\uffff")).isNegative();
    }

    @Test
    void typesRankNullThenNumbersThenTextThenBlobs() {
        List<Object> ranked = List.of(Double.NEGATIVE_INFINITY, -5L, 0L, new BigDecimal("0.5"), 7.25, Double.POSITIVE_INFINITY,
                Double.NaN, "", "a", new byte[0], new byte[] {0});
        byte[] previous = encode(BINARY, (Object) null);
        for (Object v : ranked) {
            byte[] current = encode(BINARY, v);
            assertThat(Arrays.compareUnsigned(previous, current)).as("before %s", KeyValues.describe(v)).isNegative();
            previous = current;
        }
    }

    @Test
    void aDescendingComponentIsTheInversionOfItsAscendingBytes() {
        KeyCodec descending = codec(Collation.BINARY, true);
        for (Object v : new Object[] {null, -12L, 3.5, "x\u0000y", new byte[] {0x20, 0x00}, LocalDate.of(1, 2, 3)}) {
            byte[] up = encode(BINARY, v);
            byte[] down = encode(descending, v);
            for (int i = 0; i < up.length; i++) {
                up[i] = (byte) ~up[i];
            }
            assertThat(down).isEqualTo(up);
        }
    }

    @Test
    void anEmptyPrefixEncodesAsNoBytes() {
        assertThat(BINARY.encodePrefix(new Object[0])).isEmpty();
    }

    @Test
    void aKeyOrPrefixOfTheWrongWidthIsRefused() {
        assertThatThrownBy(() -> BINARY.encode(new Object[] {1L, 2L})).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> BINARY.encode(new Object[0])).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> BINARY.encodePrefix(new Object[] {1L, 2L})).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new KeyCodec(List.of(Collation.BINARY), List.of())).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aValueOfAJavaClassTheEngineNeverStoresIsAnInternalError() {
        assertThatThrownBy(() -> encode(BINARY, 1))
                .isInstanceOfSatisfying(DeriveException.class, e -> assertThat(e.code()).isEqualTo(DeriveException.INTERNAL))
                .hasMessageContaining("java.lang.Integer");
    }

    @Test
    void aDateOutsideFourDigitYearsIsADataErrorBecauseItsTextWouldMisorder() {
        assertThatThrownBy(() -> encode(BINARY, LocalDate.of(10000, 1, 1)))
                .isInstanceOfSatisfying(DeriveException.class, e -> assertThat(e.code()).isEqualTo(DeriveException.DATA))
                .hasMessageContaining("0000 to 9999");
        assertThatThrownBy(() -> encode(BINARY, LocalDateTime.of(-1, 1, 1, 0, 0))).isInstanceOf(DeriveException.class);
        assertThat(encode(BINARY, LocalDate.of(0, 1, 1))).isEqualTo(encode(BINARY, "0000-01-01"));
    }

    @Test
    void aNumberWhoseExponentExceedsAnIntIsADataError() {
        assertThatThrownBy(() -> encode(BINARY, new BigDecimal("1E+2147483647")))
                .isInstanceOfSatisfying(DeriveException.class, e -> assertThat(e.code()).isEqualTo(DeriveException.DATA));
        assertThat(encode(BINARY, new BigDecimal("1E+2147483646"))).isNotEmpty();
        assertThat(encode(BINARY, new BigDecimal("1E-2147483647"))).isNotEmpty();
    }

    @Test
    void successorIncrementsTheLastByteBelow0xFFAndDropsWhatFollows() {
        assertThat(KeyCodec.successor(new byte[] {1, 2})).containsExactly(1, 3);
        assertThat(KeyCodec.successor(new byte[] {1, (byte) 0xFF, (byte) 0xFF})).containsExactly(2);
        assertThat(KeyCodec.successor(new byte[] {(byte) 0x7F})).containsExactly((byte) 0x80);
        assertThat(KeyCodec.successor(new byte[] {(byte) 0xFF, (byte) 0xFF})).isNull();
        assertThat(KeyCodec.successor(new byte[0])).isNull();
    }

    @Test
    void ofATableShapeTakesTheKeyColumnsCollationsAndDirectionsInKeyOrder() {
        TableShape shape = new TableShape("main", "t", List.of(
                new TableShape.Column("name", SqlType.TEXT, Collation.NOCASE, true),
                new TableShape.Column("n", SqlType.INTEGER, Collation.BINARY, true)),
                List.of(new TableShape.KeyPart(1, true), new TableShape.KeyPart(0, false)));
        KeyCodec codec = KeyCodec.of(shape);
        KeyCodec expected = new KeyCodec(List.of(Collation.BINARY, Collation.NOCASE), List.of(true, false));
        assertThat(codec.encode(new Object[] {5L, "Ann"})).isEqualTo(expected.encode(new Object[] {5L, "ann"}));
        assertThat(Arrays.compareUnsigned(codec.encode(new Object[] {6L, "b"}), codec.encode(new Object[] {5L, "a"})))
                .isNegative();
    }

    @Test
    void boundsOfAnUnboundedRangeAreOpenAndOfAFullKeySelectThatKeyOnly() {
        KeyCodec two = new KeyCodec(List.of(Collation.BINARY, Collation.BINARY), List.of(false, false));
        KeyCodec.Bounds all = two.bounds(new KeyRange(new Object[0], null, false, null, false));
        assertThat(all.from()).isNull();
        assertThat(all.to()).isNull();

        KeyCodec.Bounds one = two.bounds(new KeyRange(new Object[] {1L, "a"}, 0L, true, 9L, true));
        assertThat(BitDataOrder.DERBY.selects(one, two.encode(new Object[] {1L, "a"}))).isTrue();
        assertThat(BitDataOrder.DERBY.selects(one, two.encode(new Object[] {1L, "a\u0000"}))).isFalse();
        assertThat(BitDataOrder.DERBY.selects(one, two.encode(new Object[] {1L, "b"}))).isFalse();
    }

    @Test
    void onADescendingComponentTheLowerValueBoundIsTheUpperByteEnd() {
        KeyCodec descending = codec(Collation.BINARY, true);
        KeyCodec.Bounds atLeastFive = descending.bounds(new KeyRange(new Object[0], 5L, true, null, false));
        assertThat(atLeastFive.from()).isNull();
        assertThat(atLeastFive.to()).isNotNull();
        assertThat(List.of(5L, 6L, 1000L, Double.POSITIVE_INFINITY))
                .allSatisfy(v -> assertThat(BitDataOrder.DERBY.selects(atLeastFive, encode(descending, v))).isTrue());
        assertThat(List.of(4L, 4.999, -1L))
                .allSatisfy(v -> assertThat(BitDataOrder.DERBY.selects(atLeastFive, encode(descending, v))).isFalse());
        assertThat(BitDataOrder.DERBY.selects(atLeastFive, encode(descending, (Object) null))).isFalse();
    }

    @Test
    void boundsAreAlwaysFromInclusiveAndToExclusive() {
        KeyCodec two = new KeyCodec(List.of(Collation.BINARY, Collation.NOCASE), List.of(false, true));
        for (boolean lowerInclusive : new boolean[] {true, false}) {
            for (boolean upperInclusive : new boolean[] {true, false}) {
                KeyCodec.Bounds b = two.bounds(new KeyRange(new Object[] {1L}, "a", lowerInclusive, "q", upperInclusive));
                assertThat(b.fromInclusive()).isTrue();
                assertThat(b.toInclusive()).isFalse();
            }
        }
    }

    private static KeyCodec codec(Collation collation, boolean descending) {
        return new KeyCodec(List.of(collation), List.of(descending));
    }

    private static byte[] encode(KeyCodec codec, Object value) {
        return codec.encode(new Object[] {value});
    }
}
