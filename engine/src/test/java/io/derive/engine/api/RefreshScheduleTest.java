package io.derive.engine.api;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.time.ZoneId;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The cron dialect of refresh schedules: the next time after an instant, and what is refused. */
class RefreshScheduleTest {
    private static final ZoneId UTC = ZoneId.of("UTC");

    private static Instant next(String schedule, String after) {
        return RefreshSchedule.parse(schedule).next(Instant.parse(after), UTC);
    }

    @Test
    void fiveFieldsFireAtSecondZeroOfTheNamedMinutes() {
        assertThat(next("*/15 * * * *", "2026-12-05T10:07:30Z")).isEqualTo(Instant.parse("2026-12-05T10:15:00Z"));
        assertThat(next("0 * * * *", "2026-12-05T10:00:00Z")).isEqualTo(Instant.parse("2026-12-05T11:00:00Z"));
    }

    @Test
    void sixFieldsNameTheSecondFirst() {
        assertThat(next("*/2 * * * * *", "2026-12-05T10:07:31Z")).isEqualTo(Instant.parse("2026-12-05T10:07:32Z"));
        assertThat(next("30 0 12 * * *", "2026-12-05T12:00:30Z")).isEqualTo(Instant.parse("2026-12-06T12:00:30Z"));
    }

    @Test
    void rangesListsIncrementsAndNamesCombine() {
        assertThat(next("0 9-17/4 * * MON-FRI", "2026-12-05T08:00:00Z"))  // a Saturday
                .isEqualTo(Instant.parse("2026-12-07T09:00:00Z"));
        assertThat(next("0 0 1 jan,July *", "2026-12-05T00:00:00Z")).isEqualTo(Instant.parse("2027-01-01T00:00:00Z"));
        assertThat(next("0 0 * * 7", "2026-12-05T00:00:00Z")).isEqualTo(Instant.parse("2026-12-06T00:00:00Z"));
    }

    @Test
    void twoRestrictedDayFieldsFireOnEitherAsUnixCronDoes() {
        assertThat(next("0 0 13 * FRI", "2026-12-05T00:00:00Z")).isEqualTo(Instant.parse("2026-12-11T00:00:00Z"));
        assertThat(next("0 0 13 * ?", "2026-12-05T00:00:00Z")).isEqualTo(Instant.parse("2026-12-13T00:00:00Z"));
    }

    @Test
    void februaryTheTwentyNinthWaitsForALeapYear() {
        assertThat(next("0 0 29 2 *", "2026-12-05T00:00:00Z")).isEqualTo(Instant.parse("2028-02-29T00:00:00Z"));
    }

    @Test
    void theServersZoneReadsTheHours() {
        assertThat(RefreshSchedule.parse("0 2 * * *").next(Instant.parse("2026-12-05T00:00:00Z"), ZoneId.of("Europe/Paris")))
                .isEqualTo(Instant.parse("2026-12-05T01:00:00Z"));
    }

    @Test
    void malformedSchedulesNameTheFieldAndWhatIsWrong() {
        assertThatThrownBy(() -> RefreshSchedule.parse("* * *"))
                .hasMessage("invalid refresh schedule '* * *': it has 3 fields; a schedule has 5 (minute hour day-of-month month"
                        + " day-of-week) or 6 (second first)");
        assertThatThrownBy(() -> RefreshSchedule.parse("0 24 * * *")).hasMessageContaining("hour field: 24 is not in 0-23");
        assertThatThrownBy(() -> RefreshSchedule.parse("0 0 L * *")).hasMessageContaining("day-of-month field: 'L' is not a number");
        assertThatThrownBy(() -> RefreshSchedule.parse("*/0 * * * *")).hasMessageContaining("increment of '*/0' must be at least 1");
        assertThatThrownBy(() -> RefreshSchedule.parse("0 5-2 * * *")).hasMessageContaining("range '5-2' ends before it starts");
        assertThatThrownBy(() -> RefreshSchedule.parse("0 0 31 4 *")).hasMessageContaining("it never fires")
                .isInstanceOf(DeriveException.class)
                .extracting(e -> ((DeriveException) e).code()).isEqualTo(DeriveException.SYNTAX);
    }
}
