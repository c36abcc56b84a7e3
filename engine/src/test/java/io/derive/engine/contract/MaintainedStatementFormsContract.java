package io.derive.engine.contract;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code alter table} on a materialized view accepts only rename (semantics §2): its shape is its body's. */
public abstract class MaintainedStatementFormsContract extends HostContractTest {

    private void source() {
        script("""
                create table t (k integer primary key, v text);
                insert into t values (1, 'a');
                create table plain (k integer primary key, v text);
                create materialized view m as select k, v from t;
                """);
    }




    @Test
    void alterTableOnAMaterializedViewOtherThanRenameIsRefused() {
        source();
        assertThatThrownBy(() -> session.execute("alter table m add column x text"))
                .hasMessageContaining("its shape is defined by the view body");
        assertThatThrownBy(() -> session.execute("alter table m add constraint c check (k > 0)"))
                .hasMessageContaining("its shape is defined by the view body");
    }
}
