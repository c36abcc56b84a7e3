package io.derive.engine.contract;

import io.derive.engine.api.DeriveException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code analyze [table]} (semantics §1): row counts kept in the catalog, shown by
 * {@code statistics()}, transactional like DDL, and not kept current by later writes.
 */
public abstract class AnalyzeContract extends HostContractTest {

    private void tables() {
        script("""
                create table a (k integer primary key);
                create table b (x text);
                insert into a values (1), (2), (3);
                insert into b values ('p'), ('p');
                """);
    }

    @Test
    void nothingIsAnalyzedAtFirst() {
        tables();
        assertThat(rows("select * from statistics()")).isEmpty();
    }

    @Test
    void analyzeCountsEveryTable() {
        tables();
        session.execute("analyze");
        assertThat(rows("select schema, name, row_count from statistics() order by name"))
                .containsExactly(row("main", "a", 3L), row("main", "b", 2L));
    }

    @Test
    void analyzeOfOneTableCountsOnlyIt() {
        tables();
        session.execute("analyze b");
        assertThat(rows("select name, row_count from statistics()")).containsExactly(row("b", 2L));
    }

    @Test
    void analyzeCountsMaterializedViewsToo() {
        tables();
        session.execute("create materialized view m as select k from a where k > 1");
        session.execute("analyze m");
        assertThat(rows("select row_count from statistics() where name = 'm'")).containsExactly(row(2L));
    }

    @Test
    void statisticsAreASnapshotNotKeptCurrent() {
        tables();
        session.execute("analyze a");
        session.execute("insert into a values (4)");
        assertThat(rows("select row_count from statistics()")).containsExactly(row(3L));
        session.execute("analyze a");
        assertThat(rows("select row_count from statistics()")).containsExactly(row(4L));
    }

    @Test
    void analyzeCountsTheTransactionsOwnWritesAndRollsBackWithIt() {
        tables();
        session.execute("begin");
        session.execute("insert into a values (4)");
        session.execute("analyze a");
        assertThat(rows("select row_count from statistics()")).containsExactly(row(4L));
        session.execute("rollback");
        assertThat(rows("select * from statistics()")).isEmpty();
    }

    @Test
    void analyzeOfAnUnknownTableNamesIt() {
        assertThatThrownBy(() -> session.execute("analyze nope"))
                .isInstanceOf(DeriveException.class)
                .hasMessageContaining("no such table: nope");
    }
}
