package io.derive.engine.types;

import org.junit.jupiter.api.Test;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;

import static org.assertj.core.api.Assertions.assertThat;

class TemporalValueTest {

    @Test
    void renderingIsCanonicalIsoText() {
        assertThat(TemporalValue.render(LocalDate.of(7, 3, 4))).isEqualTo("0007-03-04");
        assertThat(TemporalValue.render(LocalTime.of(9, 5))).isEqualTo("09:05:00");
        assertThat(TemporalValue.render(LocalTime.of(9, 5, 1, 120_000_000))).isEqualTo("09:05:01.12");
        assertThat(TemporalValue.render(LocalDateTime.of(2024, 1, 31, 23, 59, 59))).isEqualTo("2024-01-31 23:59:59");
    }

    @Test
    void parsingAcceptsIsoFormsAndRejectsInvalidDates() {
        assertThat(TemporalValue.parseDate("2024-02-29")).isEqualTo(LocalDate.of(2024, 2, 29));
        assertThat(TemporalValue.parseDate("2023-02-29")).isNull();
        assertThat(TemporalValue.parseDate("2024-1-5")).isNull();
        assertThat(TemporalValue.parseTime("23:59:59.999999999")).isEqualTo(LocalTime.of(23, 59, 59, 999_999_999));
        assertThat(TemporalValue.parseTime("24:00")).isNull();
        assertThat(TemporalValue.parseTimestamp("2024-01-31T10:15")).isEqualTo(LocalDateTime.of(2024, 1, 31, 10, 15));
        assertThat(TemporalValue.parseTimestamp("2024-01-31")).isEqualTo(LocalDateTime.of(2024, 1, 31, 0, 0));
        assertThat(TemporalValue.parseTimestamp("2024-01-31 10:15 extra")).isNull();
    }
}
