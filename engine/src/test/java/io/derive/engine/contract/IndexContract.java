package io.derive.engine.contract;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code create [unique] index} and {@code drop index}, unique and partial, transactional, on any host. */
public abstract class IndexContract extends HostContractTest {

    @Test
    void aUniqueIndexRejectsADuplicate() {
        script("""
                create table t (k integer primary key, a integer, b text);
                create unique index t_ab on t (a, b);
                insert into t values (1, 1, 'x');
                """);
        assertThatThrownBy(() -> session.execute("insert into t values (2, 1, 'x')"))
                .hasMessageContaining("UNIQUE constraint failed: t.a, t.b");
    }

    @Test
    void aUniqueIndexOverDuplicatesCannotBeCreated() {
        script("""
                create table t (k integer primary key, a integer);
                insert into t values (1, 5), (2, 5);
                """);
        assertThatThrownBy(() -> session.execute("create unique index t_a on t (a)"))
                .hasMessageContaining("UNIQUE constraint failed: t.a");
        session.execute("insert into t values (3, 5)");
        session.execute("create index t_a on t (a)");
    }

    @Test
    void aPartialUniqueIndexOnlyConstrainsTheRowsItHolds() {
        script("""
                create table t (k integer primary key, email text, active integer);
                create unique index live_email on t (email) where active = 1;
                insert into t values (1, 'a', 0), (2, 'a', 0), (3, 'a', 1);
                """);
        assertThatThrownBy(() -> session.execute("insert into t values (4, 'a', 1)"))
                .hasMessageContaining("UNIQUE constraint failed: t.email");
    }

    @Test
    void anIndexCollationOverridesTheColumns() {
        script("""
                create table t (k integer primary key, name text);
                create unique index t_name on t (name collate nocase);
                insert into t values (1, 'Ann');
                """);
        assertThatThrownBy(() -> session.execute("insert into t values (2, 'aNN')"))
                .hasMessageContaining("UNIQUE constraint failed: t.name");
    }

    @Test
    void droppingAUniqueIndexLiftsTheConstraint() {
        script("""
                create table t (k integer primary key, a integer);
                create unique index t_a on t (a);
                insert into t values (1, 5);
                drop index t_a;
                insert into t values (2, 5);
                """);
        assertThat(rows("select count(*) from t")).containsExactly(row(2L));
    }

    @Test
    void aRolledBackCreateIndexIsGone() {
        script("create table t (k integer primary key, a integer)");
        session.begin();
        session.execute("create unique index t_a on t (a)");
        session.execute("insert into t values (1, 5)");
        session.rollback();
        script("""
                insert into t values (1, 5), (2, 5);
                create index t_a on t (a);
                """);
        assertThat(rows("select count(*) from t")).containsExactly(row(2L));
    }

    @Test
    void aRolledBackDropIndexStillConstrains() {
        script("""
                create table t (k integer primary key, a integer);
                create unique index t_a on t (a);
                insert into t values (1, 5);
                """);
        session.begin();
        session.execute("drop index t_a");
        session.execute("insert into t values (2, 5)");
        session.rollback();
        assertThatThrownBy(() -> session.execute("insert into t values (3, 5)"))
                .hasMessageContaining("UNIQUE constraint failed: t.a");
    }

    @Test
    void anIndexCreatedInsideATransactionCoversItsEarlierWrites() {
        script("create table t (k integer primary key, a integer)");
        session.begin();
        session.execute("insert into t values (1, 5)");
        session.execute("create unique index t_a on t (a)");
        assertThatThrownBy(() -> session.execute("insert into t values (2, 5)"))
                .hasMessageContaining("UNIQUE constraint failed: t.a");
        session.commit();
        assertThatThrownBy(() -> session.execute("insert into t values (3, 5)"))
                .hasMessageContaining("UNIQUE constraint failed: t.a");
    }

    @Test
    void rollingBackToASavepointFreesTheUniqueValuesWrittenSince() {
        script("create table t (k integer primary key, a integer unique)");
        session.begin();
        script("""
                insert into t values (1, 5);
                savepoint s;
                insert into t values (2, 6);
                rollback to s;
                insert into t values (3, 6);
                """);
        session.commit();
        assertThat(rows("select k, a from t")).containsExactly(row(1L, 5L), row(3L, 6L));
    }

    @Test
    void indexNamesAreUniqueUnlessIfNotExists() {
        script("""
                create table t (k integer primary key, a integer);
                create index i on t (a);
                create index if not exists i on t (k);
                """);
        assertThatThrownBy(() -> session.execute("create index i on t (k)")).hasMessageContaining("index i already exists");
    }

    @Test
    void aNamedUniqueConstraintTakesAnIndexName() {
        script("""
                create table t (k integer primary key, a integer);
                create index one_a on t (a);
                """);
        assertThatThrownBy(() -> session.execute("create table u (k integer primary key, a integer, constraint one_a unique (a))"))
                .hasMessageContaining("index one_a already exists");
    }

    @Test
    void engineMadeIndexNamesNeverCollide() {
        script("""
                create table t (k integer primary key, a integer unique);
                alter table t rename to t_old;
                create table t (k integer primary key, a integer unique);
                insert into t values (1, 1);
                """);
        assertThatThrownBy(() -> session.execute("insert into t values (2, 1)")).hasMessageContaining("UNIQUE constraint failed: t.a");
    }

    @Test
    void droppingAMissingIndexNamesIt() {
        assertThatThrownBy(() -> session.execute("drop index nope")).hasMessageContaining("no such index: nope");
        session.execute("drop index if exists nope");
    }

    @Test
    void theIndexOfAUniqueConstraintCannotBeDropped() {
        script("create table t (k integer primary key, a integer, constraint one_a unique (a))");
        assertThatThrownBy(() -> session.execute("drop index one_a")).hasMessageContaining("cannot be dropped");
    }

    @Test
    void anIndexOnAMissingColumnIsRejected() {
        script("create table t (k integer primary key)");
        assertThatThrownBy(() -> session.execute("create index i on t (nope)")).hasMessageContaining("no such column: nope");
    }
}
