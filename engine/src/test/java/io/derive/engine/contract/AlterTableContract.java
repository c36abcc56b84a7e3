package io.derive.engine.contract;

import io.derive.engine.api.DeriveException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The {@code alter table} forms of semantics §1, on any host that can reshape its storage. */
public abstract class AlterTableContract extends HostContractTest {

    private void people() {
        script("""
                create table p (id integer primary key, name text, age integer);
                insert into p values (1, 'ann', 30), (2, 'bob', null);
                """);
    }

    @Test
    void renameToMovesTableAndRows() {
        people();
        session.execute("alter table p rename to person");
        assertThat(rows("select id, name from person")).containsExactly(row(1L, "ann"), row(2L, "bob"));
        assertThatThrownBy(() -> session.execute("select * from p")).hasMessageContaining("no such table: p");
    }

    @Test
    void renameToATakenNameFails() {
        people();
        script("create table q (k integer primary key)");
        assertThatThrownBy(() -> session.execute("alter table p rename to q"))
                .isInstanceOf(DeriveException.class)
                .hasMessageContaining("there is already another table named 'main.q' at 1:15");
    }

    @Test
    void addColumnFillsExistingRowsWithItsDefault() {
        people();
        session.execute("alter table p add column city text default 'oslo'");
        session.execute("insert into p (id, name) values (3, 'cy')");
        assertThat(rows("select id, city from p")).containsExactly(row(1L, "oslo"), row(2L, "oslo"), row(3L, "oslo"));
    }

    @Test
    void addColumnWithoutDefaultIsNullInExistingRows() {
        people();
        session.execute("alter table p add email text");
        assertThat(rows("select id, email from p")).containsExactly(row(1L, null), row(2L, null));
    }

    @Test
    void addingANotNullColumnWithoutDefaultToANonEmptyTableFails() {
        people();
        assertThatThrownBy(() -> session.execute("alter table p add column city text not null"))
                .hasMessageContaining("Cannot add a NOT NULL column with default value NULL");
        assertThat(rows("select name from table_info('p')")).containsExactly(row("id"), row("name"), row("age"));
    }

    @Test
    void addingANotNullColumnToAnEmptyTableIsAllowed() {
        script("create table e (k integer primary key)");
        session.execute("alter table e add column c text not null");
        assertThatThrownBy(() -> session.execute("insert into e (k) values (1)"))
                .hasMessageContaining("NOT NULL constraint failed: e.c");
    }

    @Test
    void addingADuplicateOrPrimaryKeyColumnFails() {
        people();
        assertThatThrownBy(() -> session.execute("alter table p add column Name text"))
                .hasMessageContaining("duplicate column name: Name");
        assertThatThrownBy(() -> session.execute("alter table p add column k2 integer primary key"))
                .hasMessageContaining("Cannot add a PRIMARY KEY column");
    }

    @Test
    void dropColumnRemovesItsValues() {
        people();
        session.execute("alter table p drop column name");
        assertThat(rows("select * from p")).containsExactly(row(1L, 30L), row(2L, null));
        assertThatThrownBy(() -> session.execute("select name from p")).hasMessageContaining("no such column: name");
    }

    @Test
    void dropColumnRefusesAKeyColumn() {
        people();
        assertThatThrownBy(() -> session.execute("alter table p drop column id"))
                .hasMessageContaining("cannot drop PRIMARY KEY column: id");
    }

    @Test
    void dropColumnOfAnUnknownColumnNamesIt() {
        people();
        assertThatThrownBy(() -> session.execute("alter table p drop column shoe"))
                .hasMessageContaining("no such column: shoe");
    }

    @Test
    void renameColumnKeepsValues() {
        people();
        session.execute("alter table p rename column name to full_name");
        assertThat(rows("select full_name from p")).containsExactly(row("ann"), row("bob"));
        assertThatThrownBy(() -> session.execute("alter table p rename age to full_name"))
                .hasMessageContaining("duplicate column name: full_name");
    }

    @Test
    void setNotNullValidatesExistingRows() {
        people();
        assertThatThrownBy(() -> session.execute("alter table p alter column age set not null"))
                .hasMessageContaining("NOT NULL constraint failed: p.age");
        session.execute("alter table p alter column name set not null");
        assertThatThrownBy(() -> session.execute("insert into p (id) values (9)"))
                .hasMessageContaining("NOT NULL constraint failed: p.name");
    }

    @Test
    void dropNotNullAllowsNulls() {
        script("create table n (k integer primary key, v text not null)");
        session.execute("alter table n alter column v drop not null");
        session.execute("insert into n (k) values (1)");
        assertThat(rows("select k, v from n")).containsExactly(row(1L, null));
        assertThatThrownBy(() -> session.execute("alter table n alter column k drop not null"))
                .hasMessageContaining("PRIMARY KEY column n.k");
    }

    @Test
    void setDataTypeCoercesExistingRows() {
        script("""
                create table s (k integer primary key, v text);
                insert into s values (1, '10'), (2, null);
                """);
        session.execute("alter table s alter column v set data type integer");
        assertThat(rows("select k, v from s")).containsExactly(row(1L, 10L), row(2L, null));
        assertThat(rows("select type from table_info('s') where name = 'v'")).containsExactly(row("integer"));
    }

    @Test
    void setDataTypeFailsNamingAValueThatDoesNotFit() {
        script("""
                create table s (k integer primary key, v text);
                insert into s values (1, '10'), (2, 'many');
                """);
        assertThatThrownBy(() -> session.execute("alter table s alter column v set data type integer"))
                .hasMessageContaining("cannot store text value 'many' in column s.v of type integer");
        assertThat(rows("select k, v from s")).containsExactly(row(1L, "10"), row(2L, "many"));
    }

    @Test
    void setCollateChangesComparisons() {
        script("""
                create table c (k integer primary key, v text);
                insert into c values (1, 'Abc');
                """);
        session.execute("alter table c alter column v set collate nocase");
        assertThat(rows("select k from c where v = 'abc'")).containsExactly(row(1L));
    }

    @Test
    void setCollateOnAKeyColumnFailsWhenKeysWouldCollide() {
        script("""
                create table c (v text primary key);
                insert into c values ('a'), ('A');
                """);
        assertThatThrownBy(() -> session.execute("alter table c alter column v set collate nocase"))
                .hasMessageContaining("UNIQUE constraint failed: c.v");
        assertThat(rows("select v from c")).containsExactly(row("A"), row("a"));
    }

    @Test
    void alteringAnUnknownTableNamesIt() {
        assertThatThrownBy(() -> session.execute("alter table nope add column x text"))
                .hasMessageContaining("no such table: nope at 1:13");
    }

    @Test
    void anUnknownAlterActionSaysWhatWasExpected() {
        people();
        assertThatThrownBy(() -> session.execute("alter table p frobnicate"))
                .hasMessageContaining("expected 'rename', 'add', 'drop', 'alter' or 'set maintained' but found")
                .hasMessageEndingWith("at 1:15");
    }

    @Test
    void setDataTypeToAnUnknownTypeNamesIt() {
        people();
        assertThatThrownBy(() -> session.execute("alter table p alter column age set data type shoe"))
                .hasMessageContaining("unknown type 'shoe' for column p.age");
    }

    @Test
    void alterTableOnAViewIsRefused() {
        people();
        session.execute("create view v as select id from p");
        assertThatThrownBy(() -> session.execute("alter table v add column x text"))
                .hasMessageContaining("cannot alter view 'v'");
    }

    @Test
    void theHiddenRowIdCannotBeAltered() {
        script("create table b (x integer)");
        assertThatThrownBy(() -> session.execute("alter table b drop column rowid"))
                .hasMessageContaining("no such column: rowid");
    }

    @Test
    void renamingAParentTableUpdatesTheForeignKeysThatReferenceIt() {
        script("""
                create table parent (id integer primary key);
                create table child (k integer primary key, p integer references parent (id));
                insert into parent values (1);
                alter table parent rename to mother;
                insert into child values (1, 1);
                """);
        assertThatThrownBy(() -> session.execute("insert into child values (2, 9)"))
                .hasMessageContaining("FOREIGN KEY constraint failed");
        assertThat(rows("select sql from schema() where name = 'child'")).containsExactly(row(
                "create table main.child (k integer not null, p integer, primary key (k), "
                        + "foreign key (p) references mother (id)) using " + config().defaultHost()));
    }

    @Test
    void dropColumnRefusesAnIndexedColumnAndKeepsOtherIndexesWorking() {
        script("""
                create table u (k integer primary key, a text unique, b text, c text);
                create index ub on u (b);
                insert into u values (1, 'x', 'y', 'z');
                """);
        assertThatThrownBy(() -> session.execute("alter table u drop column a"))
                .hasMessageContaining("cannot drop UNIQUE column: a");
        assertThatThrownBy(() -> session.execute("alter table u drop column b"))
                .hasMessageContaining("cannot drop column b: index 'ub' uses it");
        session.execute("alter table u drop column c");
        assertThatThrownBy(() -> session.execute("insert into u values (2, 'x', 'w')"))
                .hasMessageContaining("UNIQUE constraint failed: u.a");
        assertThat(rows("select k from u where b = 'y'")).containsExactly(row(1L));
    }

    @Test
    void aBagKeepsItsRowIdsThroughAnAlter() {
        script("""
                create table b (x integer);
                insert into b values (5), (5);
                alter table b add column y text default 'd';
                insert into b (x) values (6);
                """);
        assertThat(rows("select rowid, x, y from b")).containsExactly(row(1L, 5L, "d"), row(2L, 5L, "d"), row(3L, 6L, "d"));
    }

    @Test
    void theMaterializedViewsShapeCannotBeAltered() {
        people();
        session.execute("create materialized view m as select id, name from p");
        assertThatThrownBy(() -> session.execute("alter table m add column x text"))
                .hasMessageContaining("its shape is defined by the view body");
        assertThatThrownBy(() -> session.execute("alter table m rename column name to label"))
                .hasMessageContaining("its shape is defined by the view body");
    }

    @Test
    void renamingASourceRewritesTheMaterializedViewsBody() {
        people();
        session.execute("create materialized view m as select id, name from p");
        session.execute("alter table p rename to q");
        session.execute("insert into q values (3, 'cy', 5)");
        assertThat(rows("select sql from schema() where name = 'm'").get(0).get(0).toString())
                .endsWith("maintained as select id, name from q");
        assertThat(rows("select name from m order by id")).containsExactly(row("ann"), row("bob"), row("cy"));
    }
}
