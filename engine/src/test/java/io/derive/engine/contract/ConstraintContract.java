package io.derive.engine.contract;

import io.derive.engine.api.DeriveException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** NOT NULL, CHECK, PRIMARY KEY, UNIQUE and DEFAULT on any host, with SQLite's wording. */
public abstract class ConstraintContract extends HostContractTest {

    @Test
    void aFalseColumnCheckFailsNamingItsExpression() {
        script("create table t (k integer primary key, n integer check (n > 0))");
        assertThatThrownBy(() -> session.execute("insert into t values (1, -1)"))
                .isInstanceOf(DeriveException.class)
                .hasMessageContaining("CHECK constraint failed: n > 0");
        assertThat(rows("select * from t")).isEmpty();
    }

    @Test
    void aNamedTableCheckFailsNamingTheConstraint() {
        script("create table t (k integer primary key, lo integer, hi integer, constraint ordered check (lo <= hi))");
        assertThatThrownBy(() -> session.execute("insert into t values (1, 5, 2)"))
                .hasMessageContaining("CHECK constraint failed: ordered");
    }

    @Test
    void aCheckThatIsNullPasses() {
        script("""
                create table t (k integer primary key, n integer check (n > 0));
                insert into t values (1, null);
                """);
        assertThat(rows("select k, n from t")).containsExactly(row(1L, null));
    }

    @Test
    void aCheckAppliesToUpdates() {
        script("""
                create table t (k integer primary key, n integer check (n > 0));
                insert into t values (1, 1);
                """);
        assertThatThrownBy(() -> session.execute("update t set n = 0"))
                .hasMessageContaining("CHECK constraint failed: n > 0");
        assertThat(rows("select n from t")).containsExactly(row(1L));
    }

    @Test
    void aCheckNamingAMissingColumnIsRejectedAtCreate() {
        assertThatThrownBy(() -> session.execute("create table t (k integer primary key, check (nope > 0))"))
                .hasMessageContaining("no such column: nope");
    }

    @Test
    void aDuplicatePrimaryKeyFailsNamingTheKeyColumns() {
        script("""
                create table t (a integer, b text, primary key (a, b));
                insert into t values (1, 'x');
                """);
        assertThatThrownBy(() -> session.execute("insert into t values (1, 'x')"))
                .hasMessageContaining("UNIQUE constraint failed: t.a, t.b");
    }

    @Test
    void aColumnUniqueConstraintRejectsADuplicate() {
        script("""
                create table t (k integer primary key, email text unique);
                insert into t values (1, 'a@x');
                """);
        assertThatThrownBy(() -> session.execute("insert into t values (2, 'a@x')"))
                .hasMessageContaining("UNIQUE constraint failed: t.email");
        assertThat(rows("select k from t")).containsExactly(row(1L));
    }

    @Test
    void aTableUniqueConstraintCoversItsColumnsTogether() {
        script("""
                create table t (k integer primary key, a integer, b integer, unique (a, b));
                insert into t values (1, 1, 1), (2, 1, 2);
                """);
        assertThatThrownBy(() -> session.execute("insert into t values (3, 1, 2)"))
                .hasMessageContaining("UNIQUE constraint failed: t.a, t.b");
    }

    @Test
    void nullsAreDistinctInUnique() {
        script("""
                create table t (k integer primary key, a integer unique);
                insert into t values (1, null), (2, null);
                """);
        assertThat(rows("select k from t")).containsExactly(row(1L), row(2L));
    }

    @Test
    void uniqueFollowsTheColumnCollation() {
        script("""
                create table t (k integer primary key, name text collate nocase unique);
                insert into t values (1, 'Ann');
                """);
        assertThatThrownBy(() -> session.execute("insert into t values (2, 'ANN')"))
                .hasMessageContaining("UNIQUE constraint failed: t.name");
    }

    @Test
    void anUpdateMayKeepItsOwnUniqueValue() {
        script("""
                create table t (k integer primary key, a integer unique, v text);
                insert into t values (1, 10, 'x');
                update t set v = 'y' where k = 1;
                """);
        assertThat(rows("select a, v from t")).containsExactly(row(10L, "y"));
    }

    @Test
    void anUpdateOntoAnotherRowsUniqueValueFails() {
        script("""
                create table t (k integer primary key, a integer unique);
                insert into t values (1, 10), (2, 20);
                """);
        assertThatThrownBy(() -> session.execute("update t set a = 20 where k = 1"))
                .hasMessageContaining("UNIQUE constraint failed: t.a");
        assertThat(rows("select k, a from t")).containsExactly(row(1L, 10L), row(2L, 20L));
    }

    @Test
    void aValueFreedEarlierInTheStatementMayBeReused() {
        script("""
                create table t (k integer primary key, a integer unique);
                insert into t values (1, 10);
                """);
        session.execute("delete from t where k = 1");
        script("insert into t values (2, 10)");
        assertThat(rows("select k, a from t")).containsExactly(row(2L, 10L));
    }

    @Test
    void uniqueAppliesToABagToo() {
        script("""
                create table t (a integer unique, b text);
                insert into t values (1, 'x');
                """);
        assertThatThrownBy(() -> session.execute("insert into t values (1, 'y')"))
                .hasMessageContaining("UNIQUE constraint failed: t.a");
    }

    @Test
    void defaultsFillMissingColumns() {
        script("""
                create table t (k integer primary key, n integer default 7, s text default ('a' || 'b'), r real default -1.5);
                insert into t (k) values (1);
                """);
        assertThat(rows("select n, s, r from t")).containsExactly(row(7L, "ab", -1.5));
    }

    @Test
    void aNonDeterministicDefaultIsTakenAtEachInsert() {
        script("""
                create table t (k integer primary key, at timestamp default current_timestamp, r integer default (random()));
                insert into t (k) values (1), (2);
                """);
        assertThat(rows("select count(distinct r), min(at >= datetime('now', '-1 minute')) from t")).containsExactly(row(2L, 1L));
        assertThat(rows("select dflt_value from table_info('t') where name = 'r'")).containsExactly(row("random()"));
    }

    @Test
    void defaultValuesInsertsOneRowOfDefaults() {
        script("""
                create table t (a integer default 1, b text default 'x');
                insert into t default values;
                """);
        assertThat(rows("select a, b from t")).containsExactly(row(1L, "x"));
    }

    @Test
    void aFailingMultiRowInsertInATransactionLeavesNoRowOfIt() {
        script("""
                create table t (k integer primary key, n integer check (n > 0));
                insert into t values (0, 1);
                """);
        session.begin();
        assertThatThrownBy(() -> session.execute("insert into t values (1, 1), (2, 2), (3, -3), (4, 4)"))
                .hasMessageContaining("CHECK constraint failed");
        assertThat(session.inTransaction()).isTrue();
        assertThat(rows("select k from t")).containsExactly(row(0L));
        session.commit();
        assertThat(rows("select k from t")).containsExactly(row(0L));
    }
}
