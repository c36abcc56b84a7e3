package io.derive.engine.contract;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Schema change of a source (semantics §5): compatible changes recompile in place, others make the MV stale. */
public abstract class StalenessContract extends HostContractTest {

    @BeforeEach
    void source() {
        script("""
                create table t (k integer primary key, v text, n integer);
                insert into t values (1, 'a', 1), (2, 'b', 2);
                create materialized view m as select k, v from t where n > 0;
                create materialized view g as select v, count(*) as c from m group by v;
                """);
    }

    private Object stale(String name) {
        return rows("select stale from materialized_views() where name = ?", name).get(0).get(0);
    }

    @Test
    void addingAColumnRecompilesInPlace() {
        session.execute("alter table t add column z text");
        session.execute("insert into t values (3, 'c', 3, 'zz')");
        assertThat(stale("m")).isEqualTo(false);
        assertThat(rows("select k from m order by k")).containsExactly(row(1L), row(2L), row(3L));
        assertThat(rows("select c from g where v = 'c'")).containsExactly(row(1L));
    }

    @Test
    void droppingAColumnTheBodyDoesNotReadRecompilesInPlace() {
        session.execute("alter table t add column z text");
        session.execute("alter table t drop column z");
        session.execute("delete from t where k = 1");
        assertThat(stale("m")).isEqualTo(false);
        assertThat(rows("select k from m")).containsExactly(row(2L));
    }

    @Test
    void droppingAColumnTheBodyReadsMakesTheViewAndItsReadersStale() {
        session.execute("alter table t drop column n");
        assertThat(stale("m")).isEqualTo(true);
        assertThat(stale("g")).isEqualTo(true);
        assertThatThrownBy(() -> session.execute("select * from m"))
                .hasMessageContaining("is stale; a source changed in an incompatible way — drop and recreate");
        assertThatThrownBy(() -> session.execute("refresh materialized view m")).hasMessageContaining("drop and recreate");
    }

    @Test
    void aStaleViewIsFrozenUntilRefreshed() {
        session.execute("alter table t alter column n set data type real");
        assertThat(stale("m")).isEqualTo(true);
        session.execute("insert into t values (3, 'c', 3)");
        assertThat(rows("select k from m order by k")).containsExactly(row(1L), row(2L));
        session.execute("refresh materialized view m");
        assertThat(stale("m")).isEqualTo(false);
        assertThat(rows("select k from m order by k")).containsExactly(row(1L), row(2L), row(3L));
        assertThat(stale("g")).isEqualTo(true);
    }

    @Test
    void aRolledBackAlterLeavesTheViewCurrent() {
        session.begin();
        session.execute("alter table t drop column n");
        session.rollback();
        assertThat(stale("m")).isEqualTo(false);
        session.execute("insert into t values (3, 'c', 3)");
        assertThat(rows("select count(*) from m")).containsExactly(row(3L));
    }

    @Test
    void renamingASourceOrItsColumnsLeavesTheViewAndItsReadersCurrent() {
        session.execute("alter table t rename to t2");
        session.execute("alter table t2 rename column v to label");
        session.execute("insert into t2 values (3, 'c', 3)");
        assertThat(stale("m")).isEqualTo(false);
        assertThat(stale("g")).isEqualTo(false);
        assertThat(rows("select label, c from g where label = 'c'")).containsExactly(row("c", 1L));
    }
}
