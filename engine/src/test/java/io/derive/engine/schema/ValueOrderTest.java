package io.derive.engine.schema;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;

import static org.assertj.core.api.Assertions.assertThat;

class ValueOrderTest {

    @Test
    void typesOrderAsInSqliteNullNumbersTextBlobs() {
        Object[] ascending = {null, -5L, 2.5, 3L, "A", "a", new byte[] {0}};
        for (int i = 0; i + 1 < ascending.length; i++) {
            assertThat(ValueOrder.compare(ascending[i], ascending[i + 1], Collation.BINARY)).isNegative();
        }
    }

    @Test
    void integersAndRealsCompareByExactValue() {
        assertThat(ValueOrder.compare(9007199254740993L, 9007199254740992.0, Collation.BINARY)).isPositive();
        assertThat(ValueOrder.compare(2L, 2.0, Collation.BINARY)).isZero();
        assertThat(ValueOrder.compare(new BigDecimal("2.50"), 2.5, Collation.BINARY)).isZero();
    }

    @Test
    void nocaseFoldsOnlyAsciiLetters() {
        assertThat(ValueOrder.compare("ABC", "abc", Collation.NOCASE)).isZero();
        assertThat(ValueOrder.compare("Ä", "ä", Collation.NOCASE)).isNotZero();
    }

    @Test
    void rtrimIgnoresTrailingSpaces() {
        assertThat(ValueOrder.compare("a  ", "a", Collation.RTRIM)).isZero();
        assertThat(ValueOrder.compare("a  ", "a", Collation.BINARY)).isPositive();
    }

    @Test
    void identityDistinguishesTypesThatCompareEqual() {
        assertThat(ValueOrder.identical(1L, 1.0)).isFalse();
        assertThat(ValueOrder.identical(new byte[] {1, 2}, new byte[] {1, 2})).isTrue();
        assertThat(ValueOrder.identicalRows(new Object[] {"a", null}, new Object[] {"a", null})).isTrue();
    }
}
