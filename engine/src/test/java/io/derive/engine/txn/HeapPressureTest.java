package io.derive.engine.txn;

import io.derive.engine.api.DeriveException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class HeapPressureTest {

    @Test
    void theLimitIsNinetyPercentOfTheHeapUnlessThePropertySaysOtherwise() {
        assertThat(HeapPressure.limit(null)).isEqualTo(0.9);
        assertThat(HeapPressure.limit(" 0.75 ")).isEqualTo(0.75);
        assertThat(HeapPressure.limit("1")).isEqualTo(1.0);
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "-0.5", "1.5", "ninety", ""})
    void aLimitThatIsNoFractionOfTheHeapIsRefusedNamingTheProperty(String value) {
        assertThatThrownBy(() -> HeapPressure.limit(value))
                .isInstanceOf(DeriveException.class)
                .hasMessageContaining(HeapPressure.LIMIT_PROPERTY)
                .hasMessageContaining("'" + value + "'")
                .extracting(e -> ((DeriveException) e).code()).isEqualTo(DeriveException.DATA);
    }
}
