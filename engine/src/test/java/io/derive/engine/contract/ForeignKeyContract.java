package io.derive.engine.contract;

import io.derive.engine.api.Row;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** FOREIGN KEY enforcement (MATCH SIMPLE), parent-side actions and {@code pragma foreign_keys}, on any host. */
public abstract class ForeignKeyContract extends HostContractTest {

    private void parentAndChild(String actions) {
        script("""
                create table p (id integer primary key, name text);
                insert into p values (1, 'one'), (2, 'two');
                create table c (k integer primary key, pid integer default 2 references p(id) %s);
                insert into c values (10, 1), (11, 1), (12, 2);
                """.formatted(actions));
    }

    @Test
    void aChildRowMustReferenceAnExistingParent() {
        parentAndChild("");
        assertThatThrownBy(() -> session.execute("insert into c values (13, 99)"))
                .hasMessageContaining("FOREIGN KEY constraint failed");
        assertThat(rows("select k from c")).containsExactly(row(10L), row(11L), row(12L));
    }

    @Test
    void aNullChildKeyReferencesNothing() {
        parentAndChild("");
        session.execute("insert into c values (13, null)");
        assertThat(rows("select k from c where pid is null")).containsExactly(row(13L));
    }

    @Test
    void aCompositeKeyWithANullComponentIsNotChecked() {
        script("""
                create table p (a integer, b integer, primary key (a, b));
                create table c (k integer primary key, x integer, y integer, foreign key (x, y) references p (a, b));
                insert into c values (1, 5, null);
                """);
        assertThatThrownBy(() -> session.execute("insert into c values (2, 5, 6)"))
                .hasMessageContaining("FOREIGN KEY constraint failed");
        assertThat(rows("select k from c")).containsExactly(row(1L));
    }

    @Test
    void rowsOfOneStatementMayReferenceEachOtherInAnyOrder() {
        script("""
                create table node (id integer primary key, parent integer references node(id));
                insert into node values (2, 1), (1, null);
                """);
        assertThat(rows("select id from node")).containsExactly(row(1L), row(2L));
    }

    @Test
    void deletingAReferencedParentFailsByDefault() {
        parentAndChild("");
        assertThatThrownBy(() -> session.execute("delete from p where id = 1"))
                .hasMessageContaining("FOREIGN KEY constraint failed");
        assertThat(rows("select id from p")).containsExactly(row(1L), row(2L));
    }

    @Test
    void onDeleteCascadeDeletesTheChildren() {
        parentAndChild("on delete cascade");
        session.execute("delete from p where id = 1");
        assertThat(rows("select k from c")).containsExactly(row(12L));
    }

    @Test
    void onDeleteSetNullClearsTheChildKey() {
        parentAndChild("on delete set null");
        session.execute("delete from p where id = 1");
        assertThat(rows("select k, pid from c")).containsExactly(row(10L, null), row(11L, null), row(12L, 2L));
    }

    @Test
    void onDeleteSetDefaultPointsTheChildAtTheDefault() {
        parentAndChild("on delete set default");
        session.execute("delete from p where id = 1");
        assertThat(rows("select k, pid from c")).containsExactly(row(10L, 2L), row(11L, 2L), row(12L, 2L));
    }

    @Test
    void noActionPassesWhenTheParentReturnsWithinTheStatement() {
        parentAndChild("");
        session.execute("insert or replace into p values (1, 'uno')");
        assertThat(rows("select name from p where id = 1")).containsExactly(row("uno"));
        assertThat(rows("select count(*) from c where pid = 1")).containsExactly(row(2L));
    }

    @Test
    void restrictFailsAtOnceEvenWhenTheParentWouldReturn() {
        parentAndChild("on delete restrict");
        assertThatThrownBy(() -> session.execute("insert or replace into p values (1, 'uno')"))
                .hasMessageContaining("FOREIGN KEY constraint failed");
        assertThat(rows("select name from p where id = 1")).containsExactly(row("one"));
    }

    @Test
    void setDefaultToAMissingParentFails() {
        script("""
                create table p (id integer primary key);
                insert into p values (1);
                create table c (k integer primary key, pid integer default 9 references p(id) on delete set default);
                insert into c values (10, 1);
                """);
        assertThatThrownBy(() -> session.execute("delete from p"))
                .hasMessageContaining("FOREIGN KEY constraint failed");
        assertThat(rows("select pid from c")).containsExactly(row(1L));
    }

    @Test
    void aSelfReferencingCascadeDeletesTheWholeSubtree() {
        script("""
                create table node (id integer primary key, parent integer references node(id) on delete cascade);
                insert into node values (1, null), (2, 1), (3, 2), (4, null);
                delete from node where id = 1;
                """);
        assertThat(rows("select id from node")).containsExactly(row(4L));
    }

    @Test
    void onUpdateCascadeCarriesTheNewKey() {
        parentAndChild("on update cascade");
        session.execute("update p set id = 100 where id = 1");
        assertThat(rows("select k, pid from c")).containsExactly(row(10L, 100L), row(11L, 100L), row(12L, 2L));
    }

    @Test
    void changingAReferencedKeyWithoutActionFails() {
        parentAndChild("");
        assertThatThrownBy(() -> session.execute("update p set id = 100 where id = 1"))
                .hasMessageContaining("FOREIGN KEY constraint failed");
    }

    @Test
    void cascadesChainThroughSeveralTables() {
        script("""
                create table a (id integer primary key);
                create table b (id integer primary key, a_id integer references a(id) on delete cascade);
                create table c (id integer primary key, b_id integer references b(id) on delete cascade);
                insert into a values (1);
                insert into b values (10, 1);
                insert into c values (100, 10);
                delete from a;
                """);
        assertThat(rows("select count(*) from c")).containsExactly(row(0L));
    }

    @Test
    void aForeignKeyMayReferenceAUniqueColumn() {
        script("""
                create table p (id integer primary key, code text unique);
                create table c (k integer primary key, code text references p(code));
                insert into p values (1, 'x');
                insert into c values (1, 'x');
                """);
        assertThatThrownBy(() -> session.execute("insert into c values (2, 'y')"))
                .hasMessageContaining("FOREIGN KEY constraint failed");
    }

    @Test
    void aReferenceToNonUniqueColumnsIsAMismatch() {
        script("""
                create table p (id integer primary key, code text);
                create table c (k integer primary key, code text references p(code));
                """);
        assertThatThrownBy(() -> session.execute("insert into c values (1, 'x')"))
                .hasMessageContaining("foreign key mismatch");
    }

    @Test
    void pragmaForeignKeysOffStopsEnforcement() {
        parentAndChild("");
        assertThat(rows("pragma foreign_keys")).containsExactly(row(1L));
        session.execute("pragma foreign_keys = off");
        assertThat(rows("pragma foreign_keys")).containsExactly(row(0L));
        session.execute("insert into c values (13, 99)");
        session.execute("delete from p");
        assertThat(rows("select count(*) from c")).containsExactly(row(4L));
        session.execute("pragma foreign_keys = 1");
        assertThatThrownBy(() -> session.execute("insert into c values (14, 98)"))
                .hasMessageContaining("FOREIGN KEY constraint failed");
    }

    @Test
    void pragmaValuesBelongToTheSession() {
        session.execute("pragma foreign_keys = off");
        try (var other = db.openSession()) {
            assertThat(other.execute("pragma foreign_keys").rows()).extracting(Row::values)
                    .containsExactly(java.util.List.of(1L));
        }
    }

    @Test
    void anUnknownPragmaIsAnError() {
        assertThatThrownBy(() -> session.execute("pragma nope = 1"))
                .hasMessageContaining("no such pragma: nope");
    }

    @Test
    void aCascadedDeleteReachesMaterializedViews() {
        parentAndChild("on delete cascade");
        script("create materialized view cv as select k, pid from c");
        session.execute("delete from p where id = 1");
        assertThat(rows("select k from cv")).containsExactly(row(12L));
    }
}
