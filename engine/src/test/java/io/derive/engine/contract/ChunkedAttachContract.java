package io.derive.engine.contract;

import io.derive.engine.api.DeriveException;
import io.derive.engine.api.Result;
import io.derive.engine.api.Session;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A chunked attach run ({@code alter table t attach start|continue|finish run 'r'},
 * {@code cancel}): a plain table's rows reconciled with a body a key range per transaction, the
 * derivation attached at finish with the table exactly its body, one run per table at a time.
 */
public abstract class ChunkedAttachContract extends HostContractTest {
    private static final String BODY = "select k, v * 10 as w from src";
    private static final String START = "alter table t attach start run 'r' maintained as " + BODY;

    /** Keys 1..6 of src; t agrees on 1 and 4, differs on 2 and 5, lacks 3 and 6, and has 7 and 8 besides. */
    @BeforeEach
    void tables() {
        script("""
                create table src (k integer primary key, v integer not null);
                insert into src values (1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (6, 6);
                create table t (k integer primary key, w integer not null);
                insert into t values (1, 10), (2, 99), (4, 40), (5, 99), (7, 70), (8, 80);
                """);
    }

    @Test
    void eachChunkMakesTheNextKeyRangeOfTheTableTheBodysRows() {
        assertThat(rows(START)).containsExactly(row("r", "main.t__attach", null, 0L));

        // written, position, expected, last_key, done, inserted, updated, deleted, unchanged, deferred
        assertThat(rows("alter table t attach continue run 'r' limit 3"))
                .containsExactly(row(2L, 3L, 6L, "(3)", 0L, 1L, 1L, 0L, 1L, 0L));
        assertThat(rows("select * from t order by k"))
                .containsExactly(row(1L, 10L), row(2L, 20L), row(3L, 30L), row(4L, 40L), row(5L, 99L), row(7L, 70L), row(8L, 80L));

        assertThat(rows("alter table t attach continue run 'r' limit 3"))
                .as("the last chunk also deletes the rows after the body's last key")
                .containsExactly(row(4L, 6L, 6L, "(6)", 1L, 1L, 1L, 2L, 1L, 0L));
        assertThat(rows("select * from t order by k")).isEqualTo(rows(BODY + " order by k"));
    }

    @Test
    void aTableThatAlreadyHoldsTheBodysRowsIsNotRewritten() {
        script("""
                delete from t;
                insert into t select k, v * 10 from src;
                """);
        session.execute(START);

        assertThat(rows("alter table t attach continue run 'r' limit 100"))
                .containsExactly(row(0L, 6L, 6L, "(6)", 1L, 0L, 0L, 0L, 6L, 0L));
        assertThat(rows("alter table t attach finish run 'r'")).containsExactly(row(0L));
    }

    @Test
    void finishAttachesTheDerivationWithTheTableItsBodyAsTheSourcesAreThen() {
        session.execute(START);
        session.execute("alter table t attach continue run 'r' limit 4");
        script("""
                insert into src values (9, 9);
                update src set v = 0 where k = 1;
                insert into t values (20, 1);
                """);
        session.execute("alter table t attach continue run 'r' limit 4");

        assertThat(rows("alter table t attach finish run 'r'"))
                .as("the finish rewrites only what changed since the chunks: k 1 and 9 (the last chunk deleted 20)")
                .containsExactly(row(2L));
        assertThat(rows("select * from t order by k")).isEqualTo(rows(BODY + " order by k"));
        assertThat(rows("select name from materialized_views() where name = 't'")).containsExactly(row("t"));
        assertThat(rows("select count(*) from schema() where name = 't__attach'")).containsExactly(row(0L));

        session.execute("update src set v = 100 where k = 2");
        assertThat(rows("select w from t where k = 2")).as("maintained from now on").containsExactly(row(1000L));
    }

    @Test
    void aShapeThatDoesNotFitIsRefusedAtTheStartAndNothingIsLeased() {
        assertThatThrownBy(() -> session.execute("alter table t attach start run 'r' maintained as select k, v as x from src"))
                .isInstanceOf(DeriveException.class)
                .hasMessageContaining("'main.t'")
                .hasMessageContaining("alias the body output");
        assertThat(rows("select count(*) from schema() where name = 't__attach'")).containsExactly(row(0L));
        assertThat(rows("select * from t order by k")).hasSize(6);
    }

    @Test
    void aDerivedRowThatBreaksACheckFailsItsChunkAndChangesNothing() {
        script("""
                drop table t;
                create table t (k integer primary key, w integer not null check (w < 50));
                insert into t values (1, 1);
                """);
        session.execute(START);

        assertThatThrownBy(() -> session.execute("alter table t attach continue run 'r' limit 10"))
                .isInstanceOf(DeriveException.class)
                .hasMessageStartingWith("cannot attach a derivation to 'main.t': the derived row for key (k) = (5) is refused: ")
                .hasMessageEndingWith(" at 1:15");
        assertThat(rows("select * from t")).containsExactly(row(1L, 1L));
        assertThat(rows("select count(*) from t__attach")).as("no position was committed").containsExactly(row(0L));
    }

    @Test
    void aWriteThatWouldCollideOnAUniqueValueIsLeftToTheFinish() {
        script("""
                drop table t;
                create table t (k integer primary key, w integer not null unique);
                insert into t values (1, 20), (2, 10);
                """);
        session.execute(START);

        assertThat(rows("alter table t attach continue run 'r' limit 1")).as("k 1 would take w 10, which k 2 holds")
                .containsExactly(row(0L, 1L, 6L, "(1)", 0L, 0L, 0L, 0L, 0L, 1L));
        session.execute("alter table t attach continue run 'r' limit 10");
        session.execute("alter table t attach finish run 'r'");

        assertThat(rows("select * from t order by k")).isEqualTo(rows(BODY + " order by k"));
    }

    @Test
    void aSecondRunIsRefusedWhileTheFirstHoldsTheLease() {
        session.execute(START);
        try (Session other = db.openSession()) {
            assertThatThrownBy(() -> other.execute("alter table t attach start run 'second' maintained as " + BODY))
                    .isInstanceOf(DeriveException.class)
                    .hasMessageStartingWith("table 'main.t' is being attached by run 'r' since ")
                    .hasMessageEndingWith("; wait for it to end, or cancel it with 'alter table main.t attach cancel' at 1:15")
                    .extracting(e -> ((DeriveException) e).code()).isEqualTo(DeriveException.OBJECT_IN_USE);
            assertThatThrownBy(() -> other.execute("alter table t attach finish run 'second'"))
                    .isInstanceOf(DeriveException.class)
                    .hasMessageContaining("is being attached by run 'r' since ");
        }
    }

    @Test
    void theSameRunStartingAgainResumesAfterItsLastCommittedChunk() {
        session.execute(START);
        session.execute("alter table t attach continue run 'r' limit 2");
        session.execute("begin");
        session.execute("alter table t attach continue run 'r' limit 2");
        session.execute("rollback");

        assertThat(rows(START)).containsExactly(row("r", "main.t__attach", "(2)", 1L));
        assertThat(rows("alter table t attach continue run 'r' limit 2"))
                .containsExactly(row(1L, 4L, 6L, "(4)", 0L, 1L, 0L, 0L, 1L, 0L));
    }

    @Test
    void cancelDropsTheLeaseAndLeavesTheTablePlainWithTheChunksItCommitted() {
        session.execute(START);
        session.execute("alter table t attach continue run 'r' limit 3");

        Result cancelled = session.execute("alter table t attach cancel");

        assertThat(cancelled.rows()).isEmpty();
        assertThat(rows("select count(*) from schema() where name = 't__attach'")).containsExactly(row(0L));
        assertThat(rows("select count(*) from materialized_views() where name = 't'")).containsExactly(row(0L));
        session.execute("insert into t values (30, 3)");
        assertThat(rows("select w from t where k in (2, 30) order by k")).containsExactly(row(20L), row(3L));
        assertThatThrownBy(() -> session.execute("alter table t attach cancel"))
                .isInstanceOf(DeriveException.class)
                .hasMessage("table 'main.t' has no attach run to cancel at 1:15");
    }

    @Test
    void droppingTheTableDropsItsLease() {
        session.execute(START);
        session.execute("drop table t");

        assertThat(rows("select count(*) from schema() where name like 't%'")).containsExactly(row(0L));
    }

    @Test
    void aMaintainedTableIsRefused() {
        session.execute("alter table t set maintained as " + BODY);

        assertThatThrownBy(() -> session.execute(START))
                .isInstanceOf(DeriveException.class)
                .hasMessage("cannot attach a derivation in chunks to 'main.t': it is a maintained table already (swap its"
                        + " body with 'alter table main.t set maintained as …') at 1:15");
    }

    @Test
    void aStepOfARunThatWasNeverStartedNamesTheStart() {
        assertThatThrownBy(() -> session.execute("alter table t attach continue run 'x' limit 5"))
                .isInstanceOf(DeriveException.class)
                .hasMessage("table 'main.t' has no attach run 'x' (start it with 'alter table main.t attach start run"
                        + " ''x'' maintained as …') at 1:15")
                .extracting(e -> ((DeriveException) e).code()).isEqualTo(DeriveException.UNDEFINED_OBJECT);
    }

    @Test
    void aBodyWithDuplicateKeysFailsItsFirstChunk() {
        session.execute("alter table t attach start run 'r' maintained as select k % 2 as k, 1 as w from src");

        assertThatThrownBy(() -> session.execute("alter table t attach continue run 'r' limit 5"))
                .isInstanceOf(DeriveException.class)
                .hasMessageStartingWith("cannot attach a derivation to 'main.t': its body produced duplicate rows for primary key (");
        assertThat(rows("select * from t order by k")).hasSize(6);
    }

    @Test
    void aMalformedStepNamesWhatWasExpected() {
        assertThatThrownBy(() -> session.execute("alter table t attach now"))
                .isInstanceOf(DeriveException.class)
                .hasMessageContaining("'start run', 'continue run', 'finish run' or 'cancel'")
                .hasMessageContaining("1:22");
    }

    @Test
    void strictDdlPolicyRefusesAStepInsideATransaction() {
        script("pragma ddl_transaction_policy = 'strict'");
        session.execute("begin");

        assertThatThrownBy(() -> session.execute(START))
                .isInstanceOf(DeriveException.class)
                .hasMessageContaining("alter table … attach is not allowed inside a transaction");
        session.execute("rollback");
    }
}
