package io.derive.engine.contract;

import io.derive.engine.api.DeriveException;
import org.junit.jupiter.api.Test;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The date, time and timestamp types of semantics §1: coercion on write, order, comparison, text, cast. */
public abstract class TemporalTypeContract extends HostContractTest {

    private void events() {
        script("""
                create table e (k integer primary key, d date, t time, ts timestamp);
                insert into e values (1, '2024-01-31', '10:15', '2024-01-31 10:15:30');
                insert into e values (2, '2023-12-01', '09:00:05.5', '2024-01-31T08:00:00');
                insert into e values (3, null, null, null)
                """);
    }

    @Test
    void isoTextIsStoredAsJavaTimeValues() {
        events();
        assertThat(rows("select d, t, ts from e where k = 1"))
                .containsExactly(row(LocalDate.of(2024, 1, 31), LocalTime.of(10, 15), LocalDateTime.of(2024, 1, 31, 10, 15, 30)));
    }

    @Test
    void javaTimeParametersAreStoredAsTheyAre() {
        script("create table e (k integer primary key, d date, ts timestamp)");
        session.execute("insert into e values (1, ?, ?)", LocalDate.of(2020, 2, 29), LocalDateTime.of(2020, 2, 29, 23, 59));
        assertThat(rows("select d, ts from e")).containsExactly(row(LocalDate.of(2020, 2, 29), LocalDateTime.of(2020, 2, 29, 23, 59)));
    }

    @Test
    void jdbcDateParametersAreStoredAsJavaTimeValues() {
        script("create table e (k integer primary key, d date, t time, ts timestamp)");
        session.execute("insert into e values (1, ?, ?, ?)", java.sql.Date.valueOf("2021-06-30"), java.sql.Time.valueOf("08:30:00"),
                java.sql.Timestamp.valueOf("2021-06-30 08:30:00.5"));
        assertThat(rows("select d, t, ts from e"))
                .containsExactly(row(LocalDate.of(2021, 6, 30), LocalTime.of(8, 30), LocalDateTime.of(2021, 6, 30, 8, 30, 0, 500_000_000)));
    }

    @Test
    void invalidTextIsAnErrorNamingTheColumn() {
        script("create table e (k integer primary key, d date, t time, ts timestamp)");
        assertThatThrownBy(() -> session.execute("insert into e (k, d) values (1, '2024-02-30')"))
                .isInstanceOf(DeriveException.class)
                .hasMessageContaining("column e.d of type date");
        assertThatThrownBy(() -> session.execute("insert into e (k, t) values (1, '25:00')"))
                .hasMessageContaining("column e.t of type time");
        assertThatThrownBy(() -> session.execute("insert into e (k, ts) values (1, 20240131)"))
                .hasMessageContaining("column e.ts of type timestamp");
        assertThat(rows("select * from e")).isEmpty();
    }

    @Test
    void aTimestampAtMidnightIsADateAndADateIsATimestampAtMidnight() {
        script("create table e (k integer primary key, d date, ts timestamp)");
        session.execute("insert into e values (1, ?, ?)", LocalDateTime.of(2024, 5, 1, 0, 0), LocalDate.of(2024, 5, 2));
        assertThat(rows("select d, ts from e")).containsExactly(row(LocalDate.of(2024, 5, 1), LocalDateTime.of(2024, 5, 2, 0, 0)));
        assertThatThrownBy(() -> session.execute("insert into e (k, d) values (2, ?)", LocalDateTime.of(2024, 5, 1, 10, 0)))
                .hasMessageContaining("column e.d of type date");
    }

    @Test
    void valuesOrderChronologicallyWithNullsFirst() {
        events();
        assertThat(rows("select k from e order by d")).containsExactly(row(3L), row(2L), row(1L));
        assertThat(rows("select k from e order by t desc")).containsExactly(row(1L), row(2L), row(3L));
        assertThat(rows("select k from e order by ts")).containsExactly(row(3L), row(2L), row(1L));
    }

    @Test
    void comparisonsWithIsoTextLiteralsFindTheRow() {
        events();
        assertThat(rows("select k from e where d = '2024-01-31'")).containsExactly(row(1L));
        assertThat(rows("select k from e where t = '10:15:00'")).containsExactly(row(1L));
        assertThat(rows("select k from e where ts = '2024-01-31 08:00'")).containsExactly(row(2L));
        assertThat(rows("select k from e where d < '2024-01-01'")).containsExactly(row(2L));
        assertThat(rows("select k from e where d between '2024-01-01' and '2024-12-31'")).containsExactly(row(1L));
        assertThat(rows("select k from e where d in ('2023-12-01', '1999-01-01')")).containsExactly(row(2L));
        assertThat(rows("select k from e where d = ?", "2024-01-31")).containsExactly(row(1L));
    }

    @Test
    void comparisonsWithDateFunctionTextWork() {
        events();
        assertThat(rows("select k from e where d = date('2024-01-01', '+30 days')")).containsExactly(row(1L));
        assertThat(rows("select k from e where ts > datetime('2024-01-31 09:00') order by k")).containsExactly(row(1L));
        assertThat(rows("select k from e where d < date('now') order by k")).containsExactly(row(1L), row(2L));
    }

    @Test
    void valuesReadAsIsoTextAndFeedTheDateFunctions() {
        events();
        assertThat(rows("select d || '', t || '', ts || '', typeof(d), typeof(t), typeof(ts) from e where k = 2"))
                .containsExactly(row("2023-12-01", "09:00:05.5", "2024-01-31 08:00:00", "date", "time", "timestamp"));
        assertThat(rows("select date(d, '+1 month'), strftime('%H', ts), length(d) from e where k = 1"))
                .containsExactly(row("2024-03-02", "10", 10L));
    }

    @Test
    void castToTheTemporalTypes() {
        assertThat(rows("select cast('2024-01-31' as date), cast('2024-01-31 10:15:30' as date), cast('10:15' as time),"
                + " cast('2024-01-31 10:15:30' as time), cast('2024-01-31' as timestamp), cast(cast('2024-01-31' as date) as text)"))
                .containsExactly(row(LocalDate.of(2024, 1, 31), LocalDate.of(2024, 1, 31), LocalTime.of(10, 15),
                        LocalTime.of(10, 15, 30), LocalDateTime.of(2024, 1, 31, 0, 0), "2024-01-31"));
        assertThat(rows("select cast(null as date)")).containsExactly(row((Object) null));
    }

    @Test
    void aCastOfTextThatIsNoDateIsAnError() {
        assertThatThrownBy(() -> session.execute("select cast('31/01/2024' as date)"))
                .isInstanceOf(DeriveException.class)
                .hasMessageContaining("cannot cast text '31/01/2024' to date");
    }

    @Test
    void aDateColumnCanBeAKey() {
        script("""
                create table day (d date primary key, n integer);
                insert into day values ('2024-03-01', 1), ('2024-02-29', 2)
                """);
        assertThat(rows("select n from day")).containsExactly(row(2L), row(1L));
        assertThatThrownBy(() -> session.execute("insert into day values ('2024-02-29', 3)"))
                .hasMessageContaining("UNIQUE constraint failed");
    }
}
