package io.derive.derby;

import io.derive.engine.spi.TableShape;
import io.derive.engine.types.Collation;
import io.derive.engine.types.SqlType;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;

/** The bounds {@link ColumnMagnitudes} keeps of a table's integer values. */
class ColumnMagnitudesTest {
    private final ColumnMagnitudes magnitudes = new ColumnMagnitudes(shape());

    @Test
    void aColumnHasNoBoundUntilAReadOfAllItsValuesFoundOne() {
        magnitudes.writing(new Object[] {1L, 5L});

        assertThat(magnitudes.bound(1)).isEmpty();
        magnitudes.learned(1, 3);
        assertThat(magnitudes.bound(1)).isEqualTo(OptionalLong.of(5));
    }

    @Test
    void everyValueWrittenRaisesTheBoundAndNothingLowersIt() {
        magnitudes.learned(1, 7);
        magnitudes.writing(new Object[] {1L, -40L});
        magnitudes.writing(new Object[] {2L, 2L});
        magnitudes.learned(1, 1);

        assertThat(magnitudes.bound(1)).isEqualTo(OptionalLong.of(40));
    }

    @Test
    void theLeastIntegerIsBoundedByTheGreatest() {
        magnitudes.learned(1, 0);
        magnitudes.writing(new Object[] {1L, Long.MIN_VALUE});

        assertThat(magnitudes.bound(1)).isEqualTo(OptionalLong.of(Long.MAX_VALUE));
    }

    @Test
    void aNullOrANonIntegerColumnLeavesTheBoundAsItWas() {
        magnitudes.learned(1, 4);
        magnitudes.writing(new Object[] {1L, null});

        assertThat(magnitudes.bound(1)).isEqualTo(OptionalLong.of(4));
    }

    private static TableShape shape() {
        return new TableShape("main", "t", List.of(
                new TableShape.Column("k", SqlType.INTEGER, Collation.BINARY, true),
                new TableShape.Column("v", SqlType.INTEGER, Collation.BINARY, false)), List.of(new TableShape.KeyPart(0, false)));
    }
}
