package io.derive.engine.contract;

import io.derive.engine.api.DeriveException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code or abort|fail|ignore|replace|rollback} and {@code on conflict … do …}, with SQLite's meanings. */
public abstract class ConflictClauseContract extends HostContractTest {

    private void threeRows() {
        script("""
                create table t (k integer primary key, a integer unique, v text);
                insert into t values (1, 10, 'one'), (2, 20, 'two'), (3, 30, 'three');
                """);
    }

    @Test
    void orAbortUndoesTheWholeStatement() {
        threeRows();
        session.begin();
        assertThatThrownBy(() -> session.execute("insert or abort into t values (4, 40, 'x'), (5, 10, 'y')"))
                .hasMessageContaining("UNIQUE constraint failed: t.a");
        assertThat(rows("select k from t")).containsExactly(row(1L), row(2L), row(3L));
        assertThat(session.inTransaction()).isTrue();
    }

    @Test
    void orFailKeepsTheRowsWrittenBeforeTheFailingOne() {
        threeRows();
        session.begin();
        assertThatThrownBy(() -> session.execute(
                "insert or fail into t values (4, 40, 'a'), (5, 50, 'b'), (6, 10, 'c'), (7, 70, 'd')"))
                .hasMessageContaining("UNIQUE constraint failed: t.a");
        assertThat(rows("select k from t")).containsExactly(row(1L), row(2L), row(3L), row(4L), row(5L));
        session.commit();
        assertThat(rows("select k from t")).containsExactly(row(1L), row(2L), row(3L), row(4L), row(5L));
    }

    @Test
    void orFailInAutocommitCommitsTheEarlierRows() {
        threeRows();
        assertThatThrownBy(() -> session.execute("update or fail t set a = case k when 2 then 25 else 10 end where k >= 2"))
                .hasMessageContaining("UNIQUE constraint failed: t.a");
        assertThat(rows("select k, a from t")).containsExactly(row(1L, 10L), row(2L, 25L), row(3L, 30L));
    }

    @Test
    void orIgnoreSkipsOnlyTheConflictingRows() {
        threeRows();
        session.execute("insert or ignore into t values (4, 40, 'x'), (5, 10, 'dup'), (1, 60, 'dup key')");
        assertThat(rows("select k, v from t")).containsExactly(row(1L, "one"), row(2L, "two"), row(3L, "three"), row(4L, "x"));
    }

    @Test
    void orIgnoreSkipsRowsFailingNotNullOrCheck() {
        script("create table c (k integer primary key, n integer not null check (n > 0))");
        var result = session.execute("insert or ignore into c values (1, null), (2, -1), (3, 3)");
        assertThat(result.updateCount()).isEqualTo(1);
        assertThat(rows("select k from c")).containsExactly(row(3L));
    }

    @Test
    void orReplaceDeletesEveryConflictingRowThenInserts() {
        threeRows();
        session.execute("insert or replace into t values (1, 20, 'new')");
        assertThat(rows("select k, a, v from t")).containsExactly(row(1L, 20L, "new"), row(3L, 30L, "three"));
    }

    @Test
    void replaceIntoIsInsertOrReplace() {
        threeRows();
        session.execute("replace into t values (2, 21, 'two again')");
        assertThat(rows("select k, a, v from t where k = 2")).containsExactly(row(2L, 21L, "two again"));
    }

    @Test
    void orReplaceUsesTheDefaultForANullInANotNullColumn() {
        script("create table d (k integer primary key, n integer not null default 5)");
        session.execute("insert or replace into d values (1, null)");
        assertThat(rows("select n from d")).containsExactly(row(5L));
    }

    @Test
    void updateOrReplaceRemovesTheRowItCollidesWith() {
        threeRows();
        session.execute("update or replace t set a = 30 where k = 1");
        assertThat(rows("select k, a from t")).containsExactly(row(1L, 30L), row(2L, 20L));
    }

    @Test
    void orRollbackEndsTheTransaction() {
        threeRows();
        session.begin();
        session.execute("insert into t values (4, 40, 'in txn')");
        assertThatThrownBy(() -> session.execute("insert or rollback into t values (5, 10, 'dup')"))
                .isInstanceOf(DeriveException.class)
                .hasMessageContaining("UNIQUE constraint failed: t.a")
                .satisfies(e -> assertThat(((DeriveException) e).endedTransaction()).isTrue());
        assertThat(session.inTransaction()).isFalse();
        assertThat(rows("select k from t")).containsExactly(row(1L), row(2L), row(3L));
    }

    @Test
    void onConflictDoNothingSkipsTheRow() {
        threeRows();
        var result = session.execute("insert into t values (4, 10, 'dup'), (5, 50, 'new') on conflict do nothing");
        assertThat(result.updateCount()).isEqualTo(1);
        assertThat(rows("select k from t")).containsExactly(row(1L), row(2L), row(3L), row(5L));
    }

    @Test
    void onConflictDoUpdateSeesTheExcludedRow() {
        script("""
                create table counts (word text primary key, n integer);
                insert into counts values ('a', 1);
                insert into counts values ('a', 5), ('b', 2) on conflict (word) do update set n = counts.n + excluded.n;
                """);
        assertThat(rows("select word, n from counts")).containsExactly(row("a", 6L), row("b", 2L));
    }

    @Test
    void anUnqualifiedNameInDoUpdateIsTheExistingRowsColumn() {
        script("""
                create table kv (k integer primary key, v text);
                insert into kv values (1, 'a');
                insert into kv values (1, 'b') on conflict (k) do update set v = v || excluded.v;
                """);
        assertThat(rows("select v from kv")).containsExactly(row("ab"));
    }

    @Test
    void onConflictDoUpdateWhereFalseLeavesTheRow() {
        script("""
                create table kv (k integer primary key, v integer);
                insert into kv values (1, 10);
                insert into kv values (1, 5) on conflict (k) do update set v = excluded.v where excluded.v > kv.v;
                """);
        assertThat(rows("select v from kv")).containsExactly(row(10L));
    }

    @Test
    void onConflictOnlyTakesOverItsTargetConstraint() {
        threeRows();
        assertThatThrownBy(() -> session.execute("insert into t values (9, 10, 'x') on conflict (k) do nothing"))
                .hasMessageContaining("UNIQUE constraint failed: t.a");
    }

    @Test
    void onConflictTargetMustBeAUniquenessConstraint() {
        threeRows();
        assertThatThrownBy(() -> session.execute("insert into t values (9, 90, 'x') on conflict (v) do nothing"))
                .hasMessageContaining("ON CONFLICT clause does not match any PRIMARY KEY or UNIQUE constraint");
    }

    @Test
    void rowsDeletedByOrReplaceLeaveMaterializedViews() {
        threeRows();
        script("create materialized view mv as select k, a, v from t");
        session.execute("insert or replace into t values (4, 20, 'four')");
        assertThat(rows("select k, a from mv")).containsExactly(row(1L, 10L), row(3L, 30L), row(4L, 20L));
    }

    @Test
    void anUpsertUpdateReachesMaterializedViews() {
        threeRows();
        script("create materialized view mv as select k, v from t");
        session.execute("insert into t values (1, 10, 'x') on conflict (k) do update set v = excluded.v");
        assertThat(rows("select v from mv where k = 1")).containsExactly(row("x"));
    }

    @Test
    void anAbortedStatementLeavesNoTraceInMaterializedViews() {
        threeRows();
        script("create materialized view mv as select k, v from t");
        assertThatThrownBy(() -> session.execute("insert into t values (4, 40, 'a'), (5, 10, 'b')"))
                .hasMessageContaining("UNIQUE constraint failed: t.a");
        assertThat(rows("select k from mv")).containsExactly(row(1L), row(2L), row(3L));
    }

    @Test
    void returningGivesTheInsertedRows() {
        script("create table r (k integer primary key, v text default 'd')");
        var result = session.execute("insert into r (k) values (1), (2) returning *, k * 10 as ten");
        assertThat(result.columns()).containsExactly("k", "v", "ten");
        assertThat(result.rows()).extracting(io.derive.engine.api.Row::values)
                .containsExactly(java.util.List.of(1L, "d", 10L), java.util.List.of(2L, "d", 20L));
        assertThat(result.updateCount()).isEqualTo(2);
    }

    @Test
    void returningGivesUpdatedAndDeletedRows() {
        threeRows();
        var updated = session.execute("update t set v = v || '!' where k < 3 returning k, v");
        assertThat(updated.rows()).extracting(io.derive.engine.api.Row::values)
                .containsExactly(java.util.List.of(1L, "one!"), java.util.List.of(2L, "two!"));
        var deleted = session.execute("delete from t where k = 3 returning v");
        assertThat(deleted.columns()).containsExactly("v");
        assertThat(deleted.rows()).extracting(io.derive.engine.api.Row::values).containsExactly(java.util.List.of("three"));
    }
}
