package io.derive.engine.contract;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The table form and attach/detach of derivations (semantics §2). */
public abstract class MaintainedTableContract extends HostContractTest {

    @BeforeEach
    void source() {
        script("""
                create table t (k integer primary key, v text not null, n integer);
                insert into t values (1, 'a', 1), (2, 'b', 2), (3, 'c', null);
                """);
    }

    @Test
    void theTableFormCreatesAndMaintainsADeclaredTable() {
        session.execute("create table m (k integer primary key, v text not null) maintained as select k, v from t where n > 0");
        session.execute("insert into t values (4, 'd', 4)");
        assertThat(rows("select k from m order by k")).containsExactly(row(1L), row(2L), row(4L));
        assertThat(rows("select arm from materialized_views() where name = 'm'")).containsExactly(row("per-row projection"));
    }

    @Test
    void theDeclaredShapeIsCheckedFirstMismatchReported() {
        assertThatThrownBy(() -> session.execute("create table m (k integer primary key, v text, x integer) maintained as select k, v from t"))
                .hasMessageContaining("body produces 2 columns but the table declares 3");
        assertThatThrownBy(() -> session.execute("create table m (k integer primary key, w text not null) maintained as select k, v from t"))
                .hasMessageContaining("alias the body output");
        assertThatThrownBy(() -> session.execute("create table m (k integer primary key, v integer) maintained as select k, v from t"))
                .hasMessageContaining("body derives type text");
        assertThatThrownBy(() -> session.execute("create table m (k integer primary key, v text) maintained as select k, v from t"))
                .hasMessageContaining("body derives not null but the table declares nullable");
        assertThatThrownBy(() -> session.execute("create table m (k integer primary key desc, v text not null) maintained as select k, v from t"))
                .hasMessageContaining("direction differs");
        assertThat(rows("select count(*) from schema() where name = 'm'")).containsExactly(row(0L));
    }

    @Test
    void aRenameListNamesTheBodysOutputs() {
        session.execute("create table m (id integer primary key, label text not null) maintained (id, label) as select k, v from t");
        assertThat(rows("select label from m where id = 2")).containsExactly(row("b"));
    }

    @Test
    void attachingReconcilesExistingRowsDerivedContentsWin() {
        script("""
                create table m (k integer primary key, v text not null);
                insert into m values (1, 'a'), (2, 'stale'), (9, 'extra');
                alter table m set maintained as select k, v from t;
                """);
        assertThat(rows("select k, v from m order by k")).containsExactly(row(1L, "a"), row(2L, "b"), row(3L, "c"));
        session.execute("update t set v = 'z' where k = 3");
        assertThat(rows("select v from m where k = 3")).containsExactly(row("z"));
    }

    @Test
    void aBodyWithoutTheTablesKeyLeavesTheTableUntouched() {
        script("""
                create table m (n integer primary key, c integer not null);
                insert into m values (7, 7);
                """);
        assertThatThrownBy(() -> session.execute("alter table m set maintained as select n, k as c from t where n is not null union all select 1, 1"))
                .hasMessageContaining("duplicate rows for primary key (n) = (1)");
        assertThat(rows("select n, c from m")).containsExactly(row(7L, 7L));
        assertThat(rows("select count(*) from materialized_views() where name = 'm'")).containsExactly(row(0L));
    }

    @Test
    void aDerivationCycleIsRefused() {
        script("""
                create table a (k integer primary key, v text not null);
                create materialized view b as select k, v from a;
                """);
        assertThatThrownBy(() -> session.execute("alter table a set maintained as select k, v from b"))
                .hasMessageContaining("derivation cycle (a → b → a)");
    }

    @Test
    void droppingMaintainedKeepsTheRowsAndMakesAnOrdinaryTable() {
        session.execute("create materialized view m as select k, v from t");
        session.execute("alter table m drop maintained");
        session.execute("insert into t values (4, 'd', 4)");
        assertThat(rows("select count(*) from m")).containsExactly(row(3L));
        session.execute("insert into m values (9, 'mine')");
        assertThat(rows("select count(*) from materialized_views()")).containsExactly(row(0L));
        assertThatThrownBy(() -> session.execute("alter table t drop maintained"))
                .hasMessageContaining("it is not a maintained table");
    }
}
