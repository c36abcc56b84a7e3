package io.derive.engine.contract;

import io.derive.engine.api.DeriveException;
import io.derive.engine.api.Result;
import io.derive.engine.api.Session;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A chunked refresh run ({@code refresh materialized view n start|continue|finish run 'r'},
 * {@code cancel}): the body written a chunk per transaction into the run's shadow, published at
 * finish exactly equal to the body as the sources are then, one run per view at a time.
 */
public abstract class ChunkedRefreshContract extends HostContractTest {
    private static final String BODY = "select g, count(*) as n, sum(v) as total from src group by g";

    @BeforeEach
    void view() {
        script("""
                create table src (k integer primary key, g integer not null, v integer not null);
                insert into src select value, value %% 5, value from generate_series(1, 50);
                create materialized view per_g as %s;
                """.formatted(BODY));
    }

    @Test
    void eachChunkWritesTheNextRowsOfTheBodyIntoTheShadow() {
        assertThat(rows("refresh materialized view per_g start run 'r'"))
                .containsExactly(row("r", "main.per_g__refresh", 0L, 0L));

        assertThat(rows("refresh materialized view per_g continue run 'r' limit 2"))
                .containsExactly(row(2L, 2L, 5L, "(1)", 0L));
        assertThat(rows("refresh materialized view per_g continue run 'r' limit 2"))
                .containsExactly(row(2L, 4L, 5L, "(3)", 0L));
        assertThat(rows("refresh materialized view per_g continue run 'r' limit 2"))
                .containsExactly(row(1L, 5L, 5L, "(4)", 1L));
        assertThat(rows("select g from per_g__refresh order by g")).containsExactly(row(0L), row(1L), row(2L), row(3L), row(4L));
    }

    @Test
    void finishPublishesTheBodyAsTheSourcesAreThenAlthoughTheyChangedDuringTheRun() {
        session.execute("refresh materialized view per_g start run 'r'");
        session.execute("refresh materialized view per_g continue run 'r' limit 3");
        script("""
                insert into src values (100, 7, 1), (101, 0, 1000);
                update src set v = v * 2 where g = 4;
                delete from src where g = 1;
                """);
        session.execute("refresh materialized view per_g continue run 'r' limit 3");

        Result finished = session.execute("refresh materialized view per_g finish run 'r'");

        assertThat(finished.columns()).containsExactly("changed", "swapped");
        assertThat(finished.rows().get(0).values().get(1)).as("the view took the shadow's storage").isEqualTo(1L);
        assertThat(finished.rows().get(0).values().get(0)).as("groups 0 and 4 changed, 1 gone, 7 new").isEqualTo(4L);
        assertThat(rows("select * from per_g order by g")).isEqualTo(rows(BODY + " order by g"));
        assertThat(rows("select count(*) from schema() where name = 'per_g__refresh'")).containsExactly(row(0L));
        assertThat(rows("verify materialized view per_g")).isEmpty();
    }

    @Test
    void theViewIsMaintainedAsBeforeAfterTheSwap() {
        session.execute("refresh materialized view per_g start run 'r'");
        session.execute("refresh materialized view per_g continue run 'r' limit 100");
        session.execute("refresh materialized view per_g finish run 'r'");

        script("""
                insert into src values (200, 2, 5);
                delete from src where g = 3;
                """);

        assertThat(rows("select * from per_g order by g")).isEqualTo(rows(BODY + " order by g"));
    }

    @Test
    void aStaleViewKeepsItsOldContentsForReadersUntilFinish() {
        script("""
                alter table src alter column v set data type real;
                update src set v = v + 0.5;
                """);
        List<List<Object>> before = rows("select * from per_g order by g");
        session.execute("refresh materialized view per_g start run 'r'");
        session.execute("refresh materialized view per_g continue run 'r' limit 100");

        try (Session reader = db.openSession()) {
            assertThat(rows(reader, "select * from per_g order by g")).isEqualTo(before);
            session.execute("refresh materialized view per_g finish run 'r'");
            assertThat(rows(reader, "select * from per_g order by g")).isEqualTo(rows(reader, BODY + " order by g"));
        }
        assertThat(rows("select stale from materialized_views() where name = 'per_g'")).containsExactly(row(false));
    }

    @Test
    void aSecondRunIsRefusedWhileTheFirstHoldsTheLease() {
        session.execute("refresh materialized view per_g start run 'first'");
        try (Session other = db.openSession()) {
            assertThatThrownBy(() -> other.execute("refresh materialized view per_g start run 'second'"))
                    .isInstanceOf(DeriveException.class)
                    .hasMessageStartingWith("materialized view 'main.per_g' is being refreshed by run 'first' since ")
                    .hasMessageEndingWith("; wait for it to end, or cancel it with"
                            + " 'refresh materialized view main.per_g cancel' at 1:27")
                    .extracting(e -> ((DeriveException) e).code()).isEqualTo(DeriveException.OBJECT_IN_USE);
            assertThatThrownBy(() -> other.execute("refresh materialized view per_g continue run 'second' limit 5"))
                    .isInstanceOf(DeriveException.class)
                    .hasMessageContaining("is being refreshed by run 'first' since ");
        }
    }

    @Test
    void theSameRunStartingAgainResumesAfterItsLastCommittedChunk() {
        session.execute("refresh materialized view per_g start run 'r'");
        session.execute("refresh materialized view per_g continue run 'r' limit 2");
        session.execute("begin");
        session.execute("refresh materialized view per_g continue run 'r' limit 2");
        session.execute("rollback");

        assertThat(rows("refresh materialized view per_g start run 'r'")).containsExactly(row("r", "main.per_g__refresh", 2L, 1L));
        assertThat(rows("refresh materialized view per_g continue run 'r' limit 1"))
                .as("after the last committed chunk; the rolled-back one is written again")
                .containsExactly(row(1L, 3L, 5L, "(2)", 0L));
    }

    @Test
    void cancelReleasesTheLeaseAndDropsTheShadow() {
        session.execute("refresh materialized view per_g start run 'first'");
        session.execute("refresh materialized view per_g continue run 'first' limit 2");

        session.execute("refresh materialized view per_g cancel");

        assertThat(rows("refresh materialized view per_g start run 'second'"))
                .containsExactly(row("second", "main.per_g__refresh", 0L, 0L));
        assertThatThrownBy(() -> session.execute("refresh materialized view per_g finish run 'first'"))
                .isInstanceOf(DeriveException.class).hasMessageContaining("is being refreshed by run 'second'");
    }

    @Test
    void aViewReadByAnotherViewIsRefreshedInPlaceSoTheReaderIsMaintained() {
        session.execute("create materialized view big as select g, total from per_g where total > 250");
        session.execute("refresh materialized view per_g start run 'r'");
        session.execute("refresh materialized view per_g continue run 'r' limit 100");
        session.execute("insert into src values (300, 0, 10000)");

        assertThat(rows("refresh materialized view per_g finish run 'r'").get(0).get(1)).isEqualTo(0L);
        assertThat(rows("select * from big order by g")).isEqualTo(rows("select g, total from (" + BODY
                + ") where total > 250 order by g"));
        assertThat(rows("select count(*) from schema() where name = 'per_g__refresh'")).containsExactly(row(0L));
    }

    @Test
    void droppingTheViewDropsTheShadowOfItsRun() {
        session.execute("refresh materialized view per_g start run 'r'");
        session.execute("refresh materialized view per_g continue run 'r' limit 2");

        session.execute("drop materialized view per_g");

        assertThat(rows("select count(*) from schema() where name like 'per_g%'")).containsExactly(row(0L));
    }

    @Test
    void stepsOfARunThatWasNeverStartedAreRefused() {
        assertThatThrownBy(() -> session.execute("refresh materialized view per_g continue run 'r' limit 10"))
                .isInstanceOf(DeriveException.class).hasMessage("materialized view 'main.per_g' has no refresh run 'r'"
                        + " (start it with 'refresh materialized view main.per_g start run ''r''') at 1:27");
        assertThatThrownBy(() -> session.execute("refresh materialized view per_g cancel"))
                .isInstanceOf(DeriveException.class)
                .hasMessage("materialized view 'main.per_g' has no refresh run to cancel at 1:27");
    }

    @Test
    void aTableInTheShadowsPlaceIsNotTakenOver() {
        session.execute("create table per_g__refresh (x integer)");

        assertThatThrownBy(() -> session.execute("refresh materialized view per_g start run 'r'"))
                .isInstanceOf(DeriveException.class).hasMessage("cannot run a chunked refresh of materialized view"
                        + " 'main.per_g': table 'main.per_g__refresh' exists and is not its refresh shadow (rename or"
                        + " drop it) at 1:27");
    }

    @Test
    void aChunkCountOutsideItsRangeIsASyntaxError() {
        assertThatThrownBy(() -> session.execute("refresh materialized view per_g continue run 'r' limit 0"))
                .isInstanceOf(DeriveException.class)
                .hasMessage("syntax error: expected a row count from 1 to 999999999 but found '0' at 1:56");
    }
}
