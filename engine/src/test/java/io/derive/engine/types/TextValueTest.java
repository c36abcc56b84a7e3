package io.derive.engine.types;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class TextValueTest {

    @Test
    void realsReadAsSqliteWritesThem() {
        assertThat(TextValue.of(1.0)).isEqualTo("1.0");
        assertThat(TextValue.of(-0.0)).isEqualTo("0.0");
        assertThat(TextValue.of(0.1 + 0.2)).isEqualTo("0.30000000000000004");
        assertThat(TextValue.of(1e16)).isEqualTo("10000000000000000.0");
        assertThat(TextValue.of(1e17)).isEqualTo("1.0e+17");
        assertThat(TextValue.of(1.234e-5)).isEqualTo("1.234e-05");
        assertThat(TextValue.of(Double.NEGATIVE_INFINITY)).isEqualTo("-Inf");
    }
}
