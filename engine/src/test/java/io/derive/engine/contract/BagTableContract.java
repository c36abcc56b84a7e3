package io.derive.engine.contract;

import io.derive.engine.api.Result;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Tables without a primary key: bags with an implicit rowid, as in SQLite (semantics §1). */
public abstract class BagTableContract extends HostContractTest {

    @Test
    void aTableWithoutPrimaryKeyKeepsDuplicateRows() {
        script("""
                create table b (x integer, y text);
                insert into b values (1, 'a'), (1, 'a'), (2, null);
                insert into b values (1, 'a');
                """);
        assertThat(rows("select x, y from b")).containsExactly(row(1L, "a"), row(1L, "a"), row(2L, null), row(1L, "a"));
    }

    @Test
    void rowIdsAreAssignedOneMoreThanTheLargest() {
        script("""
                create table b (x integer);
                insert into b values (10), (20), (30);
                delete from b where x = 30;
                insert into b values (40);
                """);
        assertThat(rows("select rowid, x from b")).containsExactly(row(1L, 10L), row(2L, 20L), row(3L, 40L));
    }

    @Test
    void anExplicitRowIdIsKeptAndLaterRowsFollowIt() {
        script("""
                create table b (x text);
                insert into b (rowid, x) values (100, 'first');
                insert into b (x) values ('next');
                """);
        assertThat(rows("select rowid, x from b")).containsExactly(row(100L, "first"), row(101L, "next"));
    }

    @Test
    void selectStarLeavesTheRowIdOut() {
        script("""
                create table b (x integer, y text);
                insert into b values (1, 'a');
                """);
        Result result = session.execute("select * from b");
        assertThat(result.columns()).containsExactly("x", "y");
        assertThat(rows("select * from b")).containsExactly(row(1L, "a"));
    }

    @Test
    void aValuesListWithoutColumnNamesFillsTheDeclaredColumnsOnly() {
        script("create table b (x integer, y text)");
        assertThat(session.execute("insert into b values (1, 'a'), (2, 'b')").updateCount()).isEqualTo(2);
        assertThat(rows("select rowid, x, y from b")).containsExactly(row(1L, 1L, "a"), row(2L, 2L, "b"));
    }

    @Test
    void deleteAndUpdateAddressRowsByTheirRowId() {
        script("""
                create table b (x integer);
                insert into b values (5), (5), (5);
                update b set x = 6 where rowid = 2;
                delete from b where rowid = 3;
                """);
        assertThat(rows("select rowid, x from b")).containsExactly(row(1L, 5L), row(2L, 6L));
    }

    @Test
    void anIntegerPrimaryKeyLeftNullGetsTheNextRowId() {
        script("""
                create table t (k integer primary key, v text);
                insert into t (v) values ('a'), ('b');
                insert into t values (null, 'c'), (10, 'd');
                insert into t (v) values ('e');
                """);
        assertThat(rows("select k, v from t")).containsExactly(
                row(1L, "a"), row(2L, "b"), row(3L, "c"), row(10L, "d"), row(11L, "e"));
    }

    @Test
    void rowIdNamesTheIntegerPrimaryKey() {
        script("""
                create table t (k integer primary key, v text);
                insert into t values (7, 'a');
                """);
        assertThat(rows("select rowid, oid, _rowid_, k from t")).containsExactly(row(7L, 7L, 7L, 7L));
    }

    @Test
    void oidAndUnderscoreRowIdAreAliasesOfABagsRowId() {
        script("""
                create table b (x text);
                insert into b values ('a'), ('b');
                """);
        assertThat(rows("select oid, _rowid_, x from b")).containsExactly(row(1L, 1L, "a"), row(2L, 2L, "b"));
    }

    @Test
    void aDeclaredColumnNamedRowIdShadowsTheImplicitOne() {
        script("""
                create table b (rowid text);
                insert into b values ('mine');
                """);
        assertThat(rows("select rowid, oid from b")).containsExactly(row("mine", 1L));
    }
}
