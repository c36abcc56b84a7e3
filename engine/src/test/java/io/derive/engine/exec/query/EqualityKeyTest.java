package io.derive.engine.exec.query;

import io.derive.engine.types.Collation;
import io.derive.engine.types.ValueOrder;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class EqualityKeyTest {

    /** Values that SQL compares as equal must have equal keys, and unequal ones unequal keys. */
    @Test
    void keysAreEqualExactlyWhenValuesCompareEqual() {
        List<Object> values = List.of(1L, 1.0, new BigDecimal("1.00"), -0.0, 0L, 2.5, new BigDecimal("2.50"),
                "a", "A", "a  ", new byte[] {1}, new byte[] {1}, LocalDate.of(2024, 1, 31), "2024-01-31", true,
                9007199254740993L, 9007199254740992.0, new BigDecimal("0.1"), 0.1);
        for (Collation collation : Collation.values()) {
            for (Object a : values) {
                for (Object b : values) {
                    boolean equal = ValueOrder.compare(a, b, collation) == 0;
                    assertThat(EqualityKey.of(a, collation).equals(EqualityKey.of(b, collation)))
                            .as("%s vs %s under %s", a, b, collation).isEqualTo(equal);
                }
            }
        }
    }
}
