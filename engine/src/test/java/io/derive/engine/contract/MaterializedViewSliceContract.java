package io.derive.engine.contract;

import io.derive.engine.api.CommitVote;
import io.derive.engine.api.DeriveException;
import io.derive.engine.api.Session;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The first slice of materialized-view behaviour: a per-row projection MV stays equal to its
 * body through inserts, updates and deletes, inside and outside transactions.
 */
public abstract class MaterializedViewSliceContract extends HostContractTest {

    private static final String SCHEMA = """
            create table orders (id integer primary key, customer text not null, amount integer, status text);
            create materialized view open_orders as
              select id, customer, amount from orders where status = 'open';
            """;

    private static final String BODY = "select id, customer, amount from orders where status = 'open' order by id";

    private void assertMatchesBody() {
        assertThat(rows("select * from open_orders order by id")).isEqualTo(rows(BODY));
    }

    @Test
    void createFillsFromExistingRows() {
        script("""
                create table orders (id integer primary key, customer text not null, amount integer, status text);
                insert into orders values (1, 'ann', 10, 'open'), (2, 'bob', 20, 'closed'), (3, 'cy', 30, 'open');
                create materialized view open_orders as
                  select id, customer, amount from orders where status = 'open';
                """);
        assertThat(rows("select id, customer, amount from open_orders order by id"))
                .containsExactly(row(1L, "ann", 10L), row(3L, "cy", 30L));
    }

    @Test
    void insertInScopeAddsTheProjectedRow() {
        script(SCHEMA);
        session.execute("insert into orders values (1, 'ann', 10, 'open'), (2, 'bob', 20, 'closed')");
        assertThat(rows("select * from open_orders")).containsExactly(row(1L, "ann", 10L));
    }

    @Test
    void updateMovingARowOutOfScopeDeletesIt() {
        script(SCHEMA);
        session.execute("insert into orders values (1, 'ann', 10, 'open'), (2, 'bob', 20, 'open')");
        session.execute("update orders set status = 'closed' where id = 1");
        assertThat(rows("select id from open_orders")).containsExactly(row(2L));
        assertMatchesBody();
    }

    @Test
    void updateMovingARowIntoScopeInsertsIt() {
        script(SCHEMA);
        session.execute("insert into orders values (1, 'ann', 10, 'closed')");
        session.execute("update orders set status = 'open', amount = amount + 5 where id = 1");
        assertThat(rows("select * from open_orders")).containsExactly(row(1L, "ann", 15L));
    }

    @Test
    void updateOfTheKeyRekeysTheBackingRow() {
        script(SCHEMA);
        session.execute("insert into orders values (1, 'ann', 10, 'open')");
        session.execute("update orders set id = 7 where id = 1");
        assertThat(rows("select id, customer from open_orders")).containsExactly(row(7L, "ann"));
    }

    @Test
    void deleteRemovesTheBackingRow() {
        script(SCHEMA);
        session.execute("insert into orders values (1, 'ann', 10, 'open'), (2, 'bob', 20, 'open')");
        session.execute("delete from orders where customer = ?", "ann");
        assertThat(rows("select id from open_orders")).containsExactly(row(2L));
    }

    @Test
    void rollbackUndoesSourceAndViewTogether() {
        script(SCHEMA);
        session.execute("insert into orders values (1, 'ann', 10, 'open')");
        session.begin();
        session.execute("insert into orders values (2, 'bob', 20, 'open')");
        session.execute("delete from orders where id = 1");
        assertThat(rows("select id from open_orders")).containsExactly(row(2L));
        session.rollback();
        assertThat(rows("select id from open_orders")).containsExactly(row(1L));
        assertThat(rows("select id from orders")).containsExactly(row(1L));
    }

    @Test
    void uncommittedWritesAreInvisibleToOtherSessionsUntilCommit() {
        script(SCHEMA);
        try (Session other = db.openSession()) {
            session.execute("begin");
            session.execute("insert into orders values (1, 'ann', 10, 'open')");
            assertUncommittedInvisibleTo(other, "select * from open_orders");
            session.execute("commit");
            assertThat(rows(other, "select id from open_orders")).containsExactly(row(1L));
        }
    }

    @Test
    void aFailingStatementInsideATransactionLeavesNoTrace() {
        script(SCHEMA);
        session.begin();
        session.execute("insert into orders values (1, 'ann', 10, 'open')");
        assertThatThrownBy(() -> session.execute(
                "insert into orders values (2, 'bob', 20, 'open'), (1, 'dup', 0, 'open')"))
                .isInstanceOf(DeriveException.class)
                .hasMessageContaining("UNIQUE constraint failed: orders.id");
        assertThat(session.inTransaction()).isTrue();
        assertThat(rows("select id from open_orders")).containsExactly(row(1L));
        session.commit();
        assertMatchesBody();
    }

    @Test
    void readsNeverEvaluateTheBody() {
        script(SCHEMA);
        session.execute("insert into orders values (1, 'ann', 10, 'open')");
        for (int i = 0; i < 3; i++) {
            rows("select * from open_orders");
        }
        assertThat(rows("select body_evaluations, row_count, arm from materialized_views() where name = 'open_orders'"))
                .containsExactly(row(1L, 1L, "per-row projection"));
    }

    @Test
    void refreshEvaluatesTheBodyOnceMore() {
        script(SCHEMA);
        session.execute("insert into orders values (1, 'ann', 10, 'open')");
        session.execute("refresh materialized view open_orders");
        assertThat(rows("select body_evaluations from materialized_views()")).containsExactly(row(2L));
        assertMatchesBody();
    }

    @Test
    void refreshOfAnUnknownViewNamesIt() {
        assertThatThrownBy(() -> session.execute("refresh materialized view nope"))
                .isInstanceOf(DeriveException.class)
                .hasMessageContaining("no such materialized view: nope")
                .hasMessageEndingWith("at 1:27");
    }

    @Test
    void userWritesGoThroughToTheSource() {
        script(SCHEMA);
        session.execute("insert into open_orders values (1, 'x', 1)");
        assertThat(rows("select id, customer, amount, status from orders")).containsExactly(row(1L, "x", 1L, "open"));
        assertMatchesBody();
    }

    @Test
    void aBodyWithoutTheSourceKeyHasNoProvableKey() {
        script("create table t (k integer primary key, v text)");
        assertThatThrownBy(() -> session.execute("create materialized view m as select v from t"))
                .isInstanceOf(DeriveException.class)
                .hasMessageContaining("materialized view 'main.m' cannot be materialized: no provable unique key");
        assertThat(rows("select name from materialized_views()")).isEmpty();
    }

    @Test
    void aBodyWithoutSourceTableIsRejected() {
        assertThatThrownBy(() -> session.execute("create materialized view m as select 1 as one"))
                .hasMessageContaining("reads no source table");
    }

    @Test
    void aNonDeterministicColumnIsRejected() {
        script("create table t (k integer primary key, v text)");
        assertThatThrownBy(() -> session.execute("create materialized view m as select k, random() as r from t"))
                .hasMessageContaining("non-deterministic expression column 'r'");
    }

    @Test
    void droppingASourceOfAViewIsRefused() {
        script(SCHEMA);
        assertThatThrownBy(() -> session.execute("drop table orders"))
                .hasMessageContaining("materialized view 'main.open_orders' reads it");
        session.execute("drop materialized view open_orders");
        session.execute("drop table orders");
        assertThatThrownBy(() -> session.execute("select * from orders")).hasMessageContaining("no such table: orders");
    }

    @Test
    void createInsideARolledBackTransactionLeavesNoObject() {
        session.begin();
        script(SCHEMA);
        session.execute("insert into orders values (1, 'ann', 10, 'open')");
        session.rollback();
        assertThatThrownBy(() -> session.execute("select * from open_orders")).hasMessageContaining("no such table");
        assertThat(rows("select * from materialized_views()")).isEmpty();
    }

    @Test
    void prepareOfAReadOnlyTransactionEndsIt() {
        script(SCHEMA);
        session.begin();
        rows("select * from orders");
        assertThat(session.prepareCommit()).isEqualTo(CommitVote.READ_ONLY);
        assertThat(session.inTransaction()).isFalse();
    }

    @Test
    void twoStepCommitPublishesAtCommitNotAtPrepare() {
        script(SCHEMA);
        try (Session other = db.openSession()) {
            session.begin();
            session.execute("insert into orders values (1, 'ann', 10, 'open')");
            assertThat(session.prepareCommit()).isEqualTo(CommitVote.PREPARED);
            assertUncommittedInvisibleTo(other, "select * from open_orders");
            assertThatThrownBy(() -> session.execute("select 1")).hasMessageContaining("prepared");
            session.commit();
            assertThat(rows(other, "select id from open_orders")).containsExactly(row(1L));
        }
    }
}
