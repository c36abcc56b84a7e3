package io.derive.engine.types;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;

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
    void datesTimesAndTimestampsRankWithTextAndOrderChronologically() {
        assertThat(ValueOrder.compare(LocalDate.of(999, 1, 1), LocalDate.of(2024, 1, 1), Collation.BINARY)).isNegative();
        assertThat(ValueOrder.compare(LocalTime.of(9, 0, 0, 500_000_000), LocalTime.of(9, 0, 0, 250_000_000), Collation.BINARY))
                .isPositive();
        assertThat(ValueOrder.compare(5L, LocalDate.of(2024, 1, 1), Collation.BINARY)).isNegative();
        assertThat(ValueOrder.compare(LocalDate.of(2024, 1, 1), new byte[] {0}, Collation.BINARY)).isNegative();
    }

    @Test
    void aTemporalValueComparesWithTextThroughItsIsoText() {
        assertThat(ValueOrder.compare(LocalDate.of(2024, 1, 31), "2024-01-31", Collation.BINARY)).isZero();
        assertThat(ValueOrder.compare(LocalDateTime.of(2024, 1, 31, 10, 0), "2024-01-31 10:00:00", Collation.BINARY)).isZero();
        assertThat(ValueOrder.compare(LocalDate.of(2024, 1, 31), "2024-02", Collation.BINARY)).isNegative();
        assertThat(ValueOrder.compare(LocalDate.of(2024, 1, 31), LocalDateTime.of(2024, 1, 31, 0, 0), Collation.BINARY))
                .isNegative();
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
