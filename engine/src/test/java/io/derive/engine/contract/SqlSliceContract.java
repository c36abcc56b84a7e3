package io.derive.engine.contract;

import io.derive.engine.Derive;
import io.derive.engine.api.DeriveException;
import io.derive.engine.api.Session;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Tables, writes, queries, errors and transactions of the first SQL slice, on any host. */
public abstract class SqlSliceContract extends HostContractTest {

    @Test
    void selectFiltersAndOrdersWithNullsFirstAscending() {
        script("""
                create table t (k integer primary key, v text, n integer);
                insert into t values (1, 'b', 2), (2, null, 1), (3, 'a', null);
                """);
        assertThat(rows("select k, v from t order by v")).containsExactly(row(2L, null), row(3L, "a"), row(1L, "b"));
        assertThat(rows("select k from t where n is not null order by n desc")).containsExactly(row(1L), row(2L));
        assertThat(rows("select k from t order by n desc nulls first")).containsExactly(row(3L), row(1L), row(2L));
    }

    @Test
    void valuesAreCoercedToTheDeclaredType() {
        script("create table t (k integer primary key, r real, s text)");
        session.execute("insert into t values (?, ?, ?)", "7", 2, 3);
        assertThat(rows("select k, r, s from t")).containsExactly(row(7L, 2.0, "3"));
        assertThat(rows("select k from t where k = '7'")).containsExactly(row(7L));
    }

    @Test
    void anUncoercibleValueNamesTheColumn() {
        script("create table t (k integer primary key, n integer)");
        assertThatThrownBy(() -> session.execute("insert into t values (1, 'many')"))
                .isInstanceOf(DeriveException.class)
                .hasMessageContaining("column t.n of type integer");
    }

    @Test
    void anInsertListingAColumnTwiceStoresTheFirstOfItsValuesAsSqliteDoes() {
        script("create table t (k integer primary key, v integer)");
        session.execute("insert into t (k, v, v) values (1, 10, 20)");
        assertThat(rows("select v from t")).containsExactly(row(10L));
    }

    @Test
    void notNullIsEnforced() {
        script("create table t (k integer primary key, v text not null)");
        assertThatThrownBy(() -> session.execute("insert into t (k) values (1)"))
                .hasMessageContaining("NOT NULL constraint failed: t.v");
        assertThat(rows("select * from t")).isEmpty();
    }

    @Test
    void aSyntaxErrorSaysWhatWasExpectedAndWhere() {
        assertThatThrownBy(() -> session.execute("select k\nfrom t where"))
                .isInstanceOf(DeriveException.class)
                .hasMessageContaining("expected an expression but found end of input")
                .hasMessageEndingWith("at 2:13")
                .satisfies(e -> {
                    DeriveException d = (DeriveException) e;
                    assertThat(d.line()).isEqualTo(2);
                    assertThat(d.column()).isEqualTo(13);
                    assertThat(d.code()).isEqualTo(DeriveException.SYNTAX);
                });
    }

    @Test
    void unknownNamesAreSited() {
        script("create table t (k integer primary key)");
        assertThatThrownBy(() -> session.execute("select x from t")).hasMessageContaining("no such column: x at 1:8");
        assertThatThrownBy(() -> session.execute("select * from nope")).hasMessageContaining("no such table: nope at 1:15");
    }

    @Test
    void aWriterOfARowAnotherTransactionWritesWaitsThenFailsNamingTheHolder() throws Exception {
        db.close();
        db = io.derive.engine.Derive.open(config().withWriteLockTimeout(java.time.Duration.ofMillis(100)));
        session = db.openSession();
        script("create table t (k integer primary key)");
        session.begin();
        session.execute("insert into t values (1)");
        try (Session other = db.openSession()) {
            var attempt = CompletableFuture.runAsync(() -> other.execute("insert into t values (1)"));
            assertThatThrownBy(() -> attempt.get(5, TimeUnit.SECONDS))
                    .hasCauseInstanceOf(DeriveException.class)
                    .hasMessageContaining("waited 100 ms for key [1] of main.t (EXCLUSIVE), held by session 1");
            assertUncommittedInvisibleTo(other, "select * from t");
        }
        session.commit();
    }

    @Test
    void theWriteLockIsReleasedAtCommit() {
        script("create table t (k integer primary key)");
        session.begin();
        session.execute("insert into t values (1)");
        session.commit();
        try (Session other = db.openSession()) {
            other.execute("insert into t values (2)");
        }
        assertThat(rows("select k from t order by k")).containsExactly(row(1L), row(2L));
    }

    @Test
    void updateByKeyChangesOnlyThatRow() {
        script("""
                create table t (a integer, b text, v integer, primary key (a, b));
                insert into t values (1, 'x', 0), (1, 'y', 0), (2, 'x', 0);
                """);
        assertThat(session.execute("update t set v = v + 1 where a = 1 and b = 'y'").updateCount()).isEqualTo(1);
        assertThat(rows("select a, b, v from t")).containsExactly(row(1L, "x", 0L), row(1L, "y", 1L), row(2L, "x", 0L));
    }

    @Test
    void aPreparedStatementRunsManyTimesAndSeesLaterSchemaChanges() {
        script("create table t (k integer primary key, v text)");
        var insert = session.prepare("insert into t values (?, ?)");
        for (long k = 1; k <= 3; k++) {
            insert.execute(k, "v" + k);
        }
        var count = session.prepare("select count(*) from t");
        assertThat(count.execute().rows().get(0).get(0)).isEqualTo(3L);
        session.execute("drop table t");
        assertThatThrownBy(count::execute).hasMessageContaining("no such table: t");
    }

    @Test
    void commitWithoutTransactionIsAnError() {
        assertThatThrownBy(() -> session.execute("commit")).hasMessageContaining("no transaction is active");
    }
}
