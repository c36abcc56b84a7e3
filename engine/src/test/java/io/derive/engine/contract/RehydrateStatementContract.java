package io.derive.engine.contract;

import io.derive.engine.api.DeriveException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code rehydrate materialized view} outside a deferred rehydrate: a database whose views were
 * all created (or refilled) while it was open has nothing pending, so the statement refuses
 * every view clearly and changes nothing.
 */
public abstract class RehydrateStatementContract extends HostContractTest {

    @BeforeEach
    void views() {
        script("""
                create table t (k integer primary key, v integer);
                insert into t values (1, 10), (2, 20);
                create materialized view m as select k, v from t where v > 15;
                """);
    }

    @Test
    void nothingIsPendingInADatabaseThatWasNotOpenedWithItsRefillsDeferred() {
        assertThat(rows("select * from rehydrate_pending()")).isEmpty();
        assertThat(db.status().pendingRehydrates()).isZero();
        assertThatThrownBy(() -> session.execute("rehydrate materialized view m"))
                .isInstanceOf(DeriveException.class)
                .hasMessage("materialized view 'main.m' is not being rehydrated: it is readable as it is at 1:29")
                .extracting(e -> ((DeriveException) e).code()).isEqualTo(DeriveException.OBJECT_NOT_READY);
        session.execute("insert into t values (3, 30)");
        assertThat(rows("select k from m order by k")).containsExactly(row(2L), row(3L));
    }

    @Test
    void onlyAMaterializedViewCanBeRehydrated() {
        assertThatThrownBy(() -> session.execute("rehydrate materialized view nope"))
                .hasMessageContaining("no such materialized view: nope");
        assertThatThrownBy(() -> session.execute("rehydrate materialized view t"))
                .hasMessageContaining("'t' is a table, not a materialized view");
        assertThatThrownBy(() -> session.execute("rehydrate view m")).hasMessageContaining("expected 'materialized'");
    }

    @Test
    void itIsRefusedInsideATransaction() {
        session.execute("begin");
        assertThatThrownBy(() -> session.execute("rehydrate materialized view m"))
                .hasMessageContaining("rehydrate materialized view is not allowed inside a transaction")
                .extracting(e -> ((DeriveException) e).code()).isEqualTo(DeriveException.TRANSACTION_STATE);
        session.execute("rollback");
    }
}
