package io.derive.cli.slt;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ValueFormatTest {

    @Test
    void nullIsNullInEveryType() {
        assertThat(ValueFormat.format(null, 'I')).isEqualTo("NULL");
        assertThat(ValueFormat.format(null, 'R')).isEqualTo("NULL");
        assertThat(ValueFormat.format(null, 'T')).isEqualTo("NULL");
    }

    @Test
    void anIntegerColumnTruncatesRealsTowardZero() {
        assertThat(ValueFormat.format(-7.9, 'I')).isEqualTo("-7");
        assertThat(ValueFormat.format(7.9, 'I')).isEqualTo("7");
        assertThat(ValueFormat.format(1e30, 'I')).isEqualTo(Long.toString(Long.MAX_VALUE));
    }

    @Test
    void anIntegerColumnReadsTextByItsNumericPrefix() {
        assertThat(ValueFormat.format("12abc", 'I')).isEqualTo("12");
        assertThat(ValueFormat.format("2.9e1x", 'I')).isEqualTo("29");
        assertThat(ValueFormat.format("abc", 'I')).isEqualTo("0");
    }

    @Test
    void aRealColumnHasThreeDecimals() {
        assertThat(ValueFormat.format(3L, 'R')).isEqualTo("3.000");
        assertThat(ValueFormat.format(2.0 / 3, 'R')).isEqualTo("0.667");
        assertThat(ValueFormat.format(-0.0001, 'R')).isEqualTo("-0.000");
    }

    @Test
    void aRealColumnKeepsSixteenSignificantDigits() {
        assertThat(ValueFormat.format(-18446744073709551616.0, 'R')).isEqualTo("-18446744073709550000.000");
        assertThat(ValueFormat.format(-9223372036854775808L, 'R')).isEqualTo("-9223372036854776000.000");
    }

    @Test
    void textIsPrintableAsciiAndEmptyTextIsMarked() {
        assertThat(ValueFormat.format("", 'T')).isEqualTo("(empty)");
        assertThat(ValueFormat.format("a\tb\u00e9", 'T')).isEqualTo("a@b@");
        assertThat(ValueFormat.format(12L, 'T')).isEqualTo("12");
        assertThat(ValueFormat.format(1.5, 'T')).isEqualTo("1.5");
        assertThat(ValueFormat.format(2.0, 'T')).isEqualTo("2.0");
    }

    @Test
    void aRealAsTextHasFifteenDigitsAndAnExponentWhenLargeOrSmall() {
        assertThat(ValueFormat.format(0.1 + 0.2, 'T')).isEqualTo("0.3");
        assertThat(ValueFormat.format(1e20, 'T')).isEqualTo("1.0e+20");
        assertThat(ValueFormat.format(-1.5e-7, 'T')).isEqualTo("-1.5e-07");
        assertThat(ValueFormat.format(123456789012345.0, 'T')).isEqualTo("123456789012345.0");
    }
}
