package io.derive.engine.contract;

import io.derive.engine.api.DeriveException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The materialized-view pragmas of semantics §1: {@code materialized_view_rebuild_row_threshold},
 * {@code nondeterministic_schema} and {@code ddl_transaction_policy}, whose 'strict' value refuses
 * MV DDL and refresh inside {@code begin … commit}.
 */
public abstract class MaterializedViewPragmasContract extends HostContractTest {

    @Test
    void defaults() {
        assertThat(rows("pragma materialized_view_rebuild_row_threshold")).containsExactly(row(10_000L));
        assertThat(rows("pragma nondeterministic_schema")).containsExactly(row(0L));
        assertThat(rows("pragma ddl_transaction_policy")).containsExactly(row("permissive"));
    }

    @Test
    void valuesAreStoredAndReadBack() {
        script("""
                pragma materialized_view_rebuild_row_threshold = 0;
                pragma nondeterministic_schema = true;
                pragma ddl_transaction_policy = 'STRICT';
                """);
        assertThat(rows("pragma materialized_view_rebuild_row_threshold")).containsExactly(row(0L));
        assertThat(rows("pragma nondeterministic_schema")).containsExactly(row(1L));
        assertThat(rows("pragma ddl_transaction_policy")).containsExactly(row("strict"));
    }

    @Test
    void aNegativeThresholdIsRefused() {
        assertThatThrownBy(() -> session.execute("pragma materialized_view_rebuild_row_threshold = -1"))
                .isInstanceOf(DeriveException.class)
                .hasMessageContaining("materialized_view_rebuild_row_threshold must be an integer >= 0");
    }

    @Test
    void anUnknownPolicyIsRefused() {
        assertThatThrownBy(() -> session.execute("pragma ddl_transaction_policy = 'lax'"))
                .hasMessageContaining("ddl_transaction_policy must be 'permissive' or 'strict'");
    }

    private void strict() {
        script("""
                create table t (k integer primary key, v text);
                create materialized view m as select k, v from t;
                pragma ddl_transaction_policy = 'strict';
                """);
    }

    @Test
    void strictRefusesCreateMaterializedViewInsideATransaction() {
        strict();
        session.execute("begin");
        assertThatThrownBy(() -> session.execute("create materialized view m2 as select k from t"))
                .hasMessageContaining("ddl_transaction_policy is 'strict'")
                .hasMessageContaining("create materialized view");
        session.execute("commit");
        assertThat(rows("select name from schema() where name = 'm2'")).isEmpty();
    }

    @Test
    void strictRefusesRefreshDropAndTagsInsideATransaction() {
        strict();
        session.execute("begin");
        assertThatThrownBy(() -> session.execute("refresh materialized view m")).hasMessageContaining("strict");
        assertThatThrownBy(() -> session.execute("drop materialized view m")).hasMessageContaining("strict");
        assertThatThrownBy(() -> session.execute("drop table m")).hasMessageContaining("strict");
        assertThatThrownBy(() -> session.execute("alter materialized view m set tags (a = 'b')"))
                .hasMessageContaining("strict");
        session.execute("rollback");
    }

    @Test
    void strictKeepsTheTransactionUsableForOtherStatements() {
        strict();
        session.execute("begin");
        assertThatThrownBy(() -> session.execute("refresh materialized view m")).hasMessageContaining("strict");
        session.execute("insert into t values (1, 'a')");
        session.execute("create table other (x integer)");
        session.execute("commit");
        assertThat(rows("select k from m")).containsExactly(row(1L));
    }

    @Test
    void strictAllowsMaterializedViewDdlOutsideATransaction() {
        strict();
        session.execute("refresh materialized view m");
        session.execute("create materialized view m2 as select k from t");
        session.execute("drop materialized view m2");
        assertThat(rows("select name from materialized_views()")).containsExactly(row("m"));
    }

    @Test
    void permissiveAllowsMaterializedViewDdlInsideATransaction() {
        session.execute("create table t (k integer primary key, v text)");
        session.execute("begin");
        session.execute("create materialized view m as select k from t");
        session.execute("commit");
        assertThat(rows("select name from materialized_views()")).containsExactly(row("m"));
    }
}
