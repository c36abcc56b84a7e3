package io.derive.engine.contract;

import io.derive.engine.api.DeriveException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The statement forms of semantics §2 that later issues implement (the table form, set/drop
 * maintained, refresh schedules) are refused cleanly, naming the statement and changing nothing;
 * and {@code alter table} on a materialized view accepts only rename.
 */
public abstract class MaintainedStatementFormsContract extends HostContractTest {

    private void source() {
        script("""
                create table t (k integer primary key, v text);
                insert into t values (1, 'a');
                create table plain (k integer primary key, v text);
                create materialized view m as select k, v from t;
                """);
    }

    private void assertNotSupported(String sql, String fragment) {
        assertThatThrownBy(() -> session.execute(sql))
                .isInstanceOf(DeriveException.class)
                .hasMessageContaining(fragment)
                .hasMessageContaining("is not supported yet")
                .extracting(e -> ((DeriveException) e).code()).isEqualTo(DeriveException.FEATURE_NOT_SUPPORTED);
    }




    @Test
    void refreshSchedulesAreRefused() {
        source();
        assertNotSupported("alter materialized view m set refresh schedule '0 * * * *'", "set refresh schedule");
        assertNotSupported("alter materialized view m drop refresh schedule", "drop refresh schedule");
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
