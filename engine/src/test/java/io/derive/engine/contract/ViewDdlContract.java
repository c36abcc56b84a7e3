package io.derive.engine.contract;

import io.derive.engine.api.DeriveException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code create view} and {@code drop view}: the catalog side and its errors (semantics §1, §2). */
public abstract class ViewDdlContract extends HostContractTest {

    @BeforeEach
    void sourceTable() {
        script("""
                create table t (k integer primary key, v text);
                insert into t values (1, 'a'), (2, 'b');
                """);
    }

    private List<List<Object>> views() {
        return rows("select schema, name, sql from schema() where type = 'view'");
    }

    @Test
    void createViewRegistersItWithItsCanonicalText() {
        session.execute("create view v (key, value) as select k, v from t where k > 1");
        assertThat(views()).containsExactly(row("main", "v", "create view main.v (key, value) as select k, v from t where k > 1"));
    }

    @Test
    void aViewNameCanBeTakenOnlyOnce() {
        session.execute("create view v as select k from t");
        assertThatThrownBy(() -> session.execute("create view v as select v from t"))
                .isInstanceOf(DeriveException.class)
                .hasMessageContaining("view 'main.v' already exists at 1:13");
    }

    @Test
    void ifNotExistsLeavesAnExistingViewAlone() {
        session.execute("create view v as select k from t");
        session.execute("create view if not exists v as select v from t");
        assertThat(views()).containsExactly(row("main", "v", "create view main.v as select k from t"));
    }

    @Test
    void viewsAndTablesShareOneNamespace() {
        session.execute("create view v as select k from t");
        assertThatThrownBy(() -> session.execute("create table v (a integer primary key)"))
                .hasMessageContaining("view 'main.v' already exists");
        assertThatThrownBy(() -> session.execute("create view t as select 1"))
                .hasMessageContaining("table 'main.t' already exists");
        assertThatThrownBy(() -> session.execute("create materialized view v as select k from t"))
                .hasMessageContaining("view 'main.v' already exists");
    }

    @Test
    void dropViewRemovesIt() {
        session.execute("create view v as select k from t");
        session.execute("drop view v");
        assertThat(views()).isEmpty();
        assertThatThrownBy(() -> session.execute("drop view v")).hasMessageContaining("no such view: v at 1:11");
        session.execute("drop view if exists v");
        session.execute("create view v as select v from t");
        assertThat(views()).hasSize(1);
    }

    @Test
    void dropViewOnATableSaysUseDropTable() {
        assertThatThrownBy(() -> session.execute("drop view t")).hasMessageContaining("use DROP TABLE");
        assertThatThrownBy(() -> session.execute("drop view if exists t")).hasMessageContaining("use DROP TABLE");
    }

    @Test
    void dropTableOnAViewSaysUseDropView() {
        session.execute("create view v as select k from t");
        assertThatThrownBy(() -> session.execute("drop table v")).hasMessageContaining("use DROP VIEW");
        assertThatThrownBy(() -> session.execute("drop materialized view v")).hasMessageContaining("use DROP VIEW");
        assertThat(views()).hasSize(1);
    }

    @Test
    void dropViewOnAMaterializedViewSaysUseDropMaterializedView() {
        session.execute("create materialized view m as select k, v from t");
        assertThatThrownBy(() -> session.execute("drop view m")).hasMessageContaining("use DROP MATERIALIZED VIEW");
    }

    @Test
    void declaredColumnsMustMatchTheBody() {
        assertThatThrownBy(() -> session.execute("create view v (a, b) as select k from t"))
                .hasMessageContaining("view 'v' has 2 declared columns but its body produces 1");
    }

    @Test
    void theBodyIsCheckedWhenTheViewIsCreated() {
        assertThatThrownBy(() -> session.execute("create view v as select nope from t"))
                .hasMessageContaining("no such column: nope at 1:25");
        assertThatThrownBy(() -> session.execute("create view v as select k from missing"))
                .hasMessageContaining("no such table: missing");
        assertThat(views()).isEmpty();
    }

    @Test
    void aTemporaryViewLivesInTemp() {
        session.execute("create temp view v as select k from t");
        assertThat(rows("select schema, name from schema() where type = 'view'")).containsExactly(row("temp", "v"));
        session.execute("drop view temp.v");
        assertThat(views()).isEmpty();
    }

    @Test
    void selectingFromAViewEvaluatesItsBody() {
        session.execute("create view v (key, value) as select k, v from t where k > 1");
        assertThat(rows("select key, value from v")).containsExactly(row(2L, "b"));
    }
}
