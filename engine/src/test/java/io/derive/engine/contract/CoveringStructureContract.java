package io.derive.engine.contract;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A covering materialized view answers its source's unique-index conflict checks (semantics
 * §6): {@code unique_probes} counts the checks the MV answered (the auto-index answers the
 * others), {@code probe_rows_read} the backing rows they read — the rows sharing the probed
 * key, never the whole backing.
 */
public abstract class CoveringStructureContract extends HostContractTest {
    private static final long ROWS = 2000;

    @BeforeEach
    void tables() {
        script("""
                create table t (id integer primary key, a integer, b text, unique (a));
                insert into t select value, value * 10, 'r' || value from generate_series(1, 2000);
                create materialized view m as select a, id from t order by a;
                """);
    }

    private long probes() {
        return (Long) rows("select unique_probes from materialized_views() where name = 'm'").get(0).get(0);
    }

    private long probeRowsRead() {
        return (Long) rows("select probe_rows_read from materialized_views() where name = 'm'").get(0).get(0);
    }

    @Test
    void aDuplicateIsFoundByTheCoveringViewReadingOnlyTheMatchingRow() {
        assertThat(rows("select covers, row_count from materialized_views()")).containsExactly(row("t(a)", ROWS));
        assertThatThrownBy(() -> session.execute("insert into t values (5000, 10, 'dup')"))
                .hasMessageContaining("UNIQUE constraint failed: t.a");
        assertThat(probes()).isEqualTo(1);
        assertThat(probeRowsRead()).as("one matching backing row of %s", ROWS).isEqualTo(1);
        session.execute("insert into t values (5000, 5, 'fresh')");
        assertThat(probes()).isEqualTo(2);
        assertThat(probeRowsRead()).as("a fresh value matches nothing").isEqualTo(1);
    }

    @Test
    void aCompositeKeySeeksOnEveryColumnNotJustTheLeadingOne() {
        script("""
                create table w (id integer primary key, x integer not null, y integer not null, unique (x, y));
                insert into w select value, 1, value from generate_series(1, 500);
                create materialized view mw as select y, x, id from w order by x, y;
                """);
        assertThatThrownBy(() -> session.execute("insert into w values (1000, 1, 250)"))
                .hasMessageContaining("UNIQUE constraint failed: w.x, w.y");
        assertThat(rows("select unique_probes, probe_rows_read from materialized_views() where name = 'mw'"))
                .as("500 rows share x = 1; the seek reads only (1, 250)").containsExactly(row(1L, 1L));
    }

    @Test
    void replaceEvictsThroughTheViewAndALaterRowOfTheStatementSeesNoPhantom() {
        session.execute("insert or replace into t values (5000, 10, 'w'), (5001, 10, 'v')");
        assertThat(rows("select id from t where a = 10")).containsExactly(row(5001L));
        assertThat(rows("select id from m where a = 10")).containsExactly(row(5001L));
        assertThat(rows("select count(*) from m")).containsExactly(row(ROWS));
        assertThat(probes()).isEqualTo(2);
        assertThat(probeRowsRead()).as("each probe read the one row holding a = 10 at that moment").isEqualTo(2);
    }

    @Test
    void intraStatementDuplicatesAreSeenMidStatement() {
        assertThatThrownBy(() -> session.execute("insert into t values (5000, 7, 'p'), (5001, 7, 'q')"))
                .hasMessageContaining("UNIQUE constraint failed: t.a");
        assertThat(rows("select count(*) from m where a = 7")).containsExactly(row(0L));
        session.execute("insert or ignore into t values (5000, 7, 'p'), (5001, 7, 'q')");
        assertThat(rows("select id from m where a = 7")).containsExactly(row(5000L));
    }

    @Test
    void aStaleCandidateIsCheckedAgainstTheLiveRow() {
        session.begin();
        session.execute("update t set a = 15 where id = 1");
        session.execute("insert into t values (5000, 10, 'reuse')");
        session.commit();
        assertThat(rows("select id from m where a in (10, 15) order by a")).containsExactly(row(5000L), row(1L));
    }

    @Test
    void aOneToOneJoinViewAnswersReadingOnlyTheMatchingRow() {
        script("""
                create table p (id integer primary key, label text);
                insert into p select value, 'p' || value from generate_series(1, 20);
                create table q (id integer primary key, a integer unique, pid integer not null references p (id));
                insert into q select value, value * 10, value % 20 + 1 from generate_series(1, 2000);
                create materialized view mq as select q.a, q.id, p.label from q join p on q.pid = p.id order by q.a;
                """);
        assertThat(rows("select arm, covers, row_count from materialized_views() where name = 'mq'"))
                .containsExactly(row("1:1 join", "q(a)", ROWS));
        assertThatThrownBy(() -> session.execute("insert into q values (5000, 10, 3)"))
                .hasMessageContaining("UNIQUE constraint failed: q.a");
        assertThat(rows("select unique_probes, probe_rows_read from materialized_views() where name = 'mq'"))
                .as("one matching backing row of %s", ROWS).containsExactly(row(1L, 1L));
        session.execute("insert or replace into q values (5000, 10, 3), (5001, 10, 4)");
        assertThat(rows("select id, label from mq where a = 10")).containsExactly(row(5001L, "p4"));
        assertThat(rows("select count(*) from mq")).containsExactly(row(ROWS));
    }

    @Test
    void aViewOnTheFullRebuildArmNeverAnswers() {
        session.execute("drop materialized view m");
        session.execute("create materialized view m as select a, id, (select count(*) from t) as n from t order by a");
        assertThat(rows("select arm, covers from materialized_views()")).containsExactly(row("full rebuild", "t(a)"));
        assertThatThrownBy(() -> session.execute("insert into t values (5000, 10, 'dup')"))
                .hasMessageContaining("UNIQUE constraint failed: t.a");
        assertThat(probes()).as("the auto-index answered").isZero();
    }
}
