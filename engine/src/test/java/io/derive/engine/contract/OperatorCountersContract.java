package io.derive.engine.contract;

import io.derive.engine.api.PreparedStatement;
import io.derive.engine.api.Session;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The counters an operator's metrics read: per view, the rows maintenance changed and its time,
 * the refreshes, their time and rows ({@code materialized_views()}); per database, the
 * transactions open, committed and rolled back ({@code transaction_counts()}), and the statements
 * run by a text kept parsed or parsed for the run ({@code statement_cache()}).
 */
public abstract class OperatorCountersContract extends HostContractTest {

    @BeforeEach
    void view() {
        script("""
                create table src (k integer primary key, v integer not null);
                insert into src select value, value from generate_series(1, 10);
                create materialized view positive as select k, v from src where v > 0;
                """);
    }

    private long counter(String column) {
        return ((Number) rows("select " + column + " from materialized_views() where name = 'positive'").get(0).get(0)).longValue();
    }

    private double seconds(String column) {
        return ((Number) rows("select " + column + " from materialized_views() where name = 'positive'").get(0).get(0)).doubleValue();
    }

    @Test
    void rowsMaintainedGrowByTheBackingRowsEachWriteChanged() {
        assertThat(counter("rows_maintained")).as("the fill is not maintenance").isZero();

        script("""
                insert into src values (11, 5), (12, -5), (13, 7);
                update src set v = 70 where k = 13;
                update src set v = -1 where k = 1;
                delete from src where k in (2, 12);
                """);

        assertThat(counter("rows_maintained")).as("2 inserted, 1 updated, 1 left the filter, 1 deleted").isEqualTo(5);
        assertThat(seconds("maintenance_seconds")).isPositive();
    }

    @Test
    void aRefreshCountsItselfItsTimeAndTheRowsItsDiffChanged() {
        script("""
                alter table src alter column v set data type real;
                update src set v = v + 0.5 where k <= 3;
                refresh materialized view positive;
                """);

        assertThat(counter("refreshes")).isEqualTo(1);
        assertThat(counter("refresh_rows")).isEqualTo(3);
        assertThat(seconds("refresh_seconds")).isPositive();
        assertThat(counter("rows_maintained")).as("a refresh is not maintenance").isZero();
    }

    @Test
    void transactionCountsCountCommitsRollbacksReadsAndTheTransactionsOpen() {
        List<Object> before = rows("select open, commits, rollbacks, read_only from transaction_counts()").get(0);
        session.execute("insert into src values (20, 1)");
        session.execute("begin");
        session.execute("insert into src values (21, 1)");
        session.execute("rollback");
        session.execute("begin");
        session.execute("select count(*) from src");
        session.execute("rollback");

        List<Object> after = rows("select open, commits, rollbacks, read_only from transaction_counts()").get(0);
        assertThat(before.get(0)).as("the reading statement's own").isEqualTo(1L);
        assertThat((Long) after.get(1) - (Long) before.get(1)).as("the insert").isEqualTo(1L);
        assertThat((Long) after.get(2) - (Long) before.get(2)).as("the rolled-back insert").isEqualTo(1L);
        assertThat((Long) after.get(3) - (Long) before.get(3)).as("the first read's end and the rolled-back read").isEqualTo(2L);

        session.execute("begin");
        session.execute("insert into src values (22, 1)");
        try (Session other = db.openSession()) {
            assertThat(rows(other, "select open from transaction_counts()")).containsExactly(row(2L));
        }
        session.execute("commit");
    }

    @Test
    void statementCacheCountsRunsOfTextsKeptAndParsedButNotPreparedOnes() {
        String counters = "select reused, parsed from statement_cache()";
        List<Object> before = rows(counters).get(0);
        session.execute("select v from src where k = ?", 1);
        session.execute("select v from src where k = ?", 2);
        session.execute("select v from src where k = ?", 3);
        PreparedStatement prepared = session.prepare("select v from src where k = ?");
        prepared.execute(4);
        prepared.execute(5);

        List<Object> after = rows(counters).get(0);

        assertThat((Long) after.get(0) - (Long) before.get(0)).as("two runs of the kept text, and this reading's own")
                .isEqualTo(3L);
        assertThat((Long) after.get(1) - (Long) before.get(1)).as("the text's first run").isEqualTo(1L);
        try (Session other = db.openSession()) {
            assertThat(rows(other, counters)).as("a session keeps texts of its own: this one parses the reading")
                    .containsExactly(row(after.get(0), (Long) after.get(1) + 1));
        }
    }
}
