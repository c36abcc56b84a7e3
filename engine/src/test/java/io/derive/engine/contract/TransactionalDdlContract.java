package io.derive.engine.contract;

import io.derive.engine.api.Session;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * DDL inside {@code begin … commit} is part of the transaction (semantics §1): rollback and
 * {@code rollback to} undo catalog entries and contents alike, and other sessions see nothing
 * before commit.
 */
public abstract class TransactionalDdlContract extends HostContractTest {

    private List<List<Object>> objects() {
        return rows("select type, name from schema()");
    }

    @Test
    void rollbackUndoesCreateTableAndItsRows() {
        script("""
                begin;
                create table t (k integer primary key);
                insert into t values (1);
                rollback;
                """);
        assertThat(objects()).isEmpty();
        session.execute("create table t (k integer primary key)");
        assertThat(rows("select k from t")).isEmpty();
    }

    @Test
    void rollbackUndoesDropTableAndKeepsTheRows() {
        script("""
                create table t (k integer primary key);
                insert into t values (1), (2);
                begin;
                drop table t;
                rollback;
                """);
        assertThat(rows("select k from t")).containsExactly(row(1L), row(2L));
    }

    @Test
    void rollbackUndoesAlterTable() {
        script("""
                create table t (k integer primary key, v text);
                insert into t values (1, 'a');
                begin;
                insert into t values (2, 'b');
                alter table t add column w integer default 7;
                update t set w = 8 where k = 1;
                alter table t drop column v;
                rollback;
                """);
        assertThat(rows("select * from t")).containsExactly(row(1L, "a"));
    }

    @Test
    void alterTableInATransactionCommitsWithItsWrites() {
        script("""
                create table t (k integer primary key, v text);
                insert into t values (1, 'a');
                begin;
                insert into t values (2, 'b');
                alter table t add column w integer default 7;
                update t set w = 8 where k = 1;
                commit;
                """);
        assertThat(rows("select k, v, w from t")).containsExactly(row(1L, "a", 8L), row(2L, "b", 7L));
    }

    @Test
    void rollbackUndoesRenameTable() {
        script("""
                create table t (k integer primary key);
                begin;
                alter table t rename to u;
                rollback;
                """);
        assertThat(objects()).containsExactly(row("table", "t"));
    }

    @Test
    void rollbackUndoesCreateAndDropView() {
        script("""
                create table t (k integer primary key);
                create view old as select k from t;
                begin;
                create view fresh as select k from t;
                drop view old;
                rollback;
                """);
        assertThat(objects()).containsExactly(row("table", "t"), row("view", "old"));
    }

    @Test
    void rollbackToASavepointUndoesDdlAfterIt() {
        script("""
                create table t (k integer primary key, v text);
                insert into t values (1, 'a');
                begin;
                create table kept (k integer primary key);
                savepoint s;
                create table gone (k integer primary key);
                alter table t add column w integer default 7;
                create view v as select k from t;
                drop table kept;
                rollback to s;
                commit;
                """);
        assertThat(objects()).containsExactly(row("table", "t"), row("table", "kept"));
        assertThat(rows("select * from t")).containsExactly(row(1L, "a"));
    }

    @Test
    void rollbackToASavepointUndoesWritesToATableAlteredBeforeIt() {
        script("""
                create table t (k integer primary key);
                begin;
                alter table t add column v text default 'x';
                savepoint s;
                insert into t values (1, 'y');
                rollback to s;
                insert into t (k) values (2);
                commit;
                """);
        assertThat(rows("select k, v from t")).containsExactly(row(2L, "x"));
    }

    @Test
    void otherSessionsSeeDdlOnlyAfterCommit() {
        script("""
                create table t (k integer primary key, v text);
                insert into t values (1, 'a');
                begin;
                alter table t drop column v;
                create table u (k integer primary key);
                """);
        try (Session other = db.openSession()) {
            assertThat(rows(other, "select * from t")).containsExactly(row(1L, "a"));
            assertThatThrownBy(() -> other.execute("select * from u")).hasMessageContaining("no such table: u");
            session.commit();
            assertThat(rows(other, "select * from t")).containsExactly(row(1L));
            assertThat(rows(other, "select * from u")).isEmpty();
        }
    }

    @Test
    void aFailingAlterInATransactionLeavesTheTransactionUsable() {
        script("""
                create table t (k integer primary key, v text);
                insert into t values (1, 'x');
                begin;
                insert into t values (2, 'y');
                """);
        assertThatThrownBy(() -> session.execute("alter table t alter column v set data type integer"))
                .hasMessageContaining("text value 'x'");
        session.commit();
        assertThat(rows("select k, v from t")).containsExactly(row(1L, "x"), row(2L, "y"));
    }
}
