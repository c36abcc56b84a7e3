package io.derive.engine.txn;

import io.derive.engine.api.DeriveException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.management.ManagementFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
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

    @Test
    void aReadingOverTheLimitStopsOneStatementAndTheNextRuns() {
        HeapPressure pressure = new HeapPressure(0.8);
        Cancellation first = new Cancellation("A", pressure);
        Cancellation second = new Cancellation("B", pressure);

        pressure.measured(uptime(), 0.85);

        assertThatThrownBy(first::check)
                .hasMessageContaining("the statement of A was stopped: the heap is 85% full after garbage collection")
                .extracting(e -> ((DeriveException) e).code()).isEqualTo(DeriveException.OUT_OF_MEMORY);
        assertThatCode(second::check).doesNotThrowAnyException();
    }

    @Test
    void collectionsThatStartBeforeTheStoppedStatementLetGoAreSpent() {
        HeapPressure pressure = new HeapPressure(0.8);
        Cancellation stopped = new Cancellation("A", pressure);
        Cancellation next = new Cancellation("B", pressure);
        pressure.measured(uptime(), 0.85);
        assertThatThrownBy(stopped::check).isInstanceOf(DeriveException.class);

        pressure.measured(uptime() + 60_000, 0.81);
        assertThatCode(next::check).as("a reading while the stopped statement unwinds").doesNotThrowAnyException();

        long unwinding = uptime();
        stopped.statementEnded();
        pressure.measured(unwinding, 0.81);
        assertThatCode(next::check).as("a reading of a collection that started before it let go").doesNotThrowAnyException();

        pressure.measured(uptime() + 60_000, 0.82);
        assertThatThrownBy(next::check).as("a reading of a collection that started after")
                .hasMessageContaining("the statement of B was stopped: the heap is 82% full");
    }

    private static long uptime() {
        return ManagementFactory.getRuntimeMXBean().getUptime();
    }
}
