package io.derive.engine.contract;

import io.derive.engine.api.DeriveException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code alter table t add constraint …} / {@code drop constraint n}: an added constraint must hold
 * for the existing rows and is then enforced; both are undone by rollback.
 */
public abstract class AlterTableConstraintContract extends HostContractTest {

    private void people() {
        script("""
                create table p (id integer primary key, name text, age integer);
                insert into p values (1, 'ann', 30), (2, 'bob', null), (3, 'cy', 40);
                """);
    }

    @Test
    void addCheckIsEnforcedOnLaterWrites() {
        people();
        session.execute("alter table p add constraint adult check (age >= 18)");
        assertThatThrownBy(() -> session.execute("insert into p values (4, 'kid', 9)"))
                .isInstanceOf(DeriveException.class)
                .hasMessageContaining("CHECK constraint failed: adult");
        assertThat((String) rows("select sql from schema() where name = 'p'").get(0).get(0))
                .contains("constraint adult check (age >= 18)");
    }

    @Test
    void addCheckFailsWhenAnExistingRowViolatesIt() {
        people();
        assertThatThrownBy(() -> session.execute("alter table p add constraint old check (age > 35)"))
                .hasMessageContaining("CHECK constraint failed: old");
        session.execute("insert into p values (4, 'dee', 20)");
    }

    @Test
    void addCheckOnAnUnknownColumnNamesIt() {
        people();
        assertThatThrownBy(() -> session.execute("alter table p add constraint c check (height > 0)"))
                .hasMessageContaining("no such column: height");
    }

    @Test
    void addUniqueBuildsTheIndexAndEnforcesIt() {
        people();
        session.execute("alter table p add constraint uname unique (name)");
        assertThatThrownBy(() -> session.execute("insert into p values (4, 'ann', 1)"))
                .hasMessageContaining("UNIQUE constraint failed: p.name");
        assertThat(rows("select id from p where name = 'cy'")).containsExactly(row(3L));
    }

    @Test
    void addUniqueFailsOnDuplicatesNamingTheColumnsAndLeavesNoIndex() {
        people();
        session.execute("insert into p values (4, 'ann', 50)");
        assertThatThrownBy(() -> session.execute("alter table p add constraint uname unique (name)"))
                .hasMessageContaining("UNIQUE constraint failed: p.name");
        session.execute("insert into p values (5, 'ann', 60)");
        assertThat(rows("select count(*) from p where name = 'ann'")).containsExactly(row(3L));
    }

    @Test
    void addForeignKeyChecksExistingRows() {
        script("""
                create table parent (id integer primary key);
                create table child (id integer primary key, pid integer);
                insert into parent values (1);
                insert into child values (1, 1), (2, 7);
                """);
        assertThatThrownBy(() -> session.execute("alter table child add constraint fk foreign key (pid) references parent (id)"))
                .hasMessageContaining("FOREIGN KEY constraint failed");
        session.execute("delete from child where id = 2");
        session.execute("alter table child add constraint fk foreign key (pid) references parent (id)");
        assertThatThrownBy(() -> session.execute("insert into child values (3, 9)"))
                .hasMessageContaining("FOREIGN KEY constraint failed");
    }

    @Test
    void addForeignKeySkipsTheCheckWhileForeignKeysAreOff() {
        script("""
                pragma foreign_keys = off;
                create table parent (id integer primary key);
                create table child (id integer primary key, pid integer);
                insert into child values (1, 7);
                alter table child add foreign key (pid) references parent (id);
                """);
        assertThat((String) rows("select sql from schema() where name = 'child'").get(0).get(0))
                .contains("foreign key (pid) references parent (id)");
    }

    @Test
    void dropConstraintRemovesACheck() {
        script("""
                create table q (k integer primary key, v integer, constraint pos check (v > 0));
                alter table q drop constraint pos;
                insert into q values (1, -5);
                """);
        assertThat(rows("select v from q")).containsExactly(row(-5L));
    }

    @Test
    void dropConstraintRemovesAUniqueConstraintAndItsIndex() {
        script("""
                create table q (k integer primary key, v integer, constraint uv unique (v));
                alter table q drop constraint uv;
                insert into q values (1, 5), (2, 5);
                """);
        assertThat(rows("select count(*) from q where v = 5")).containsExactly(row(2L));
    }

    @Test
    void dropConstraintRemovesAForeignKey() {
        script("""
                create table parent (id integer primary key);
                create table child (id integer primary key, pid integer constraint fk references parent (id));
                alter table child drop constraint fk;
                insert into child values (1, 99);
                """);
        assertThat(rows("select pid from child")).containsExactly(row(99L));
    }

    @Test
    void aUniqueConstraintAForeignKeyReferencesCannotBeDropped() {
        script("""
                create table parent (id integer primary key, code text, constraint ucode unique (code));
                create table child (id integer primary key, pcode text references parent (code));
                """);
        assertThatThrownBy(() -> session.execute("alter table parent drop constraint ucode"))
                .hasMessageContaining("cannot drop constraint ucode: a FOREIGN KEY of table 'child' references its columns");
    }

    @Test
    void droppingAnUnknownConstraintNamesIt() {
        people();
        assertThatThrownBy(() -> session.execute("alter table p drop constraint nope"))
                .hasMessageContaining("no such constraint: nope");
    }

    @Test
    void aConstraintNameIsUsedOncePerTable() {
        people();
        session.execute("alter table p add constraint c check (age > 0)");
        assertThatThrownBy(() -> session.execute("alter table p add constraint c unique (name)"))
                .hasMessageContaining("there is already a constraint named c");
    }

    @Test
    void rollbackUndoesAnAddedUniqueConstraint() {
        people();
        session.execute("begin");
        session.execute("alter table p add constraint uname unique (name)");
        session.execute("rollback");
        session.execute("insert into p values (4, 'ann', 1)");
        assertThat(rows("select count(*) from p where name = 'ann'")).containsExactly(row(2L));
    }

    @Test
    void rollbackUndoesADroppedUniqueConstraint() {
        script("""
                create table q (k integer primary key, v integer, constraint uv unique (v));
                insert into q values (1, 5);
                """);
        session.execute("begin");
        session.execute("alter table q drop constraint uv");
        session.execute("rollback");
        assertThatThrownBy(() -> session.execute("insert into q values (2, 5)"))
                .hasMessageContaining("UNIQUE constraint failed: q.v");
        assertThat(rows("select k from q where v = 5")).containsExactly(row(1L));
    }

    @Test
    void rollbackUndoesAnAddedCheck() {
        people();
        session.execute("begin");
        session.execute("alter table p add constraint adult check (age >= 18)");
        session.execute("rollback");
        session.execute("insert into p values (4, 'kid', 9)");
    }
}
