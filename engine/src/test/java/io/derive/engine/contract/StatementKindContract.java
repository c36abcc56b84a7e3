package io.derive.engine.contract;

import io.derive.engine.api.Result;
import io.derive.engine.api.StatementKind;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every result says what kind of statement produced it, so callers such as the shell report
 * writes without parsing the SQL again; a write's count is the rows of the table it names.
 */
public abstract class StatementKindContract extends HostContractTest {

    @BeforeEach
    void schema() {
        script("""
                create table t (k integer primary key, v text);
                insert into t values (1, 'a'), (2, 'b');
                """);
    }

    private Result run(String sql) {
        return session.execute(sql);
    }

    private static void assertWrite(Result result, StatementKind kind, long count) {
        assertThat(result.kind()).isEqualTo(kind);
        assertThat(result.updateCount()).isEqualTo(count);
        assertThat(result.columns()).isEmpty();
    }

    private static void assertNothingReported(Result result, StatementKind kind) {
        assertWrite(result, kind, 0);
        assertThat(result.rows()).isEmpty();
    }

    @Test
    void queriesAreQueries() {
        assertThat(run("select k from t").kind()).isEqualTo(StatementKind.QUERY);
        assertThat(run("values (1)").kind()).isEqualTo(StatementKind.QUERY);
        assertThat(run("with w as (select v from t) select * from w").kind()).isEqualTo(StatementKind.QUERY);
        Result empty = run("select k from t where k > 9");
        assertThat(empty.kind()).isEqualTo(StatementKind.QUERY);
        assertThat(empty.columns()).containsExactly("k");
    }

    @Test
    void explainIsExplain() {
        Result result = run("explain select k from t");
        assertThat(result.kind()).isEqualTo(StatementKind.EXPLAIN);
        assertThat(result.columns()).containsExactly("plan");
    }

    @Test
    void writesReportTheirKindAndCount() {
        assertWrite(run("insert into t values (3, 'c'), (4, 'd')"), StatementKind.INSERT, 2);
        assertWrite(run("insert into t select k + 10, v from t"), StatementKind.INSERT, 4);
        assertWrite(run("update t set v = 'x' where k > 10"), StatementKind.UPDATE, 4);
        assertWrite(run("delete from t where k > 2"), StatementKind.DELETE, 6);
    }

    @Test
    void aWriteThatMatchesNothingKeepsItsKind() {
        assertWrite(run("update t set v = 'x' where k = 99"), StatementKind.UPDATE, 0);
        assertWrite(run("delete from t where k = 99"), StatementKind.DELETE, 0);
        assertWrite(run("insert or ignore into t values (1, 'dup')"), StatementKind.INSERT, 0);
    }

    @Test
    void returningKeepsTheKindBesideTheRows() {
        Result inserted = run("insert into t values (3, 'c') returning k");
        assertThat(inserted.kind()).isEqualTo(StatementKind.INSERT);
        assertThat(inserted.columns()).containsExactly("k");
        assertThat(inserted.updateCount()).isEqualTo(1);
        assertThat(inserted.rows()).hasSize(1);

        Result updated = run("update t set v = 'z' returning k, v");
        assertThat(updated.kind()).isEqualTo(StatementKind.UPDATE);
        assertThat(updated.updateCount()).isEqualTo(3);

        Result deleted = run("delete from t where k = 3 returning *");
        assertThat(deleted.kind()).isEqualTo(StatementKind.DELETE);
        assertThat(deleted.updateCount()).isEqualTo(1);
    }

    @Test
    void anUpsertIsAnInsertCountingTheRowsItUpdated() {
        assertWrite(run("insert into t values (1, 'new'), (3, 'c') on conflict (k) do update set v = excluded.v"),
                StatementKind.INSERT, 2);
        assertWrite(run("insert into t values (1, 'again'), (4, 'd') on conflict (k) do nothing"),
                StatementKind.INSERT, 1);
        assertWrite(run("insert or replace into t values (2, 'replaced')"), StatementKind.INSERT, 1);
    }

    @Test
    void writesThroughAMaterializedViewReportTheViewsStatement() {
        run("create materialized view mv as select k, v from t where k > 1");
        assertWrite(run("insert into mv values (5, 'e')"), StatementKind.INSERT, 1);
        assertWrite(run("update mv set v = 'y'"), StatementKind.UPDATE, 2);
        assertWrite(run("delete from mv where k = 5"), StatementKind.DELETE, 1);
    }

    @Test
    void schemaChangesAreDdl() {
        for (String ddl : List.of(
                "create table u (id integer primary key, t_k integer)",
                "create table if not exists u (id integer primary key)",
                "create index u_t on u (t_k)",
                "alter table u add column note text",
                "create view w as select k from t",
                "create materialized view m as select k, v from t",
                "alter materialized view m add tags (owner = 'ops')",
                "create table mt (k integer primary key, v text) maintained as select k, v from t",
                "alter table mt drop maintained",
                "drop view w",
                "drop materialized view m",
                "drop index u_t",
                "drop table u")) {
            assertNothingReported(run(ddl), StatementKind.DDL);
        }
    }

    @Test
    void refreshAndAnalyzeAreTheirOwnKinds() {
        run("create materialized view m as select k, v from t");
        assertNothingReported(run("refresh materialized view m"), StatementKind.REFRESH);
        assertNothingReported(run("analyze"), StatementKind.ANALYZE);
        assertNothingReported(run("analyze t"), StatementKind.ANALYZE);
    }

    @Test
    void aPragmaReadsARowOrSetsNone() {
        Result read = run("pragma foreign_keys");
        assertThat(read.kind()).isEqualTo(StatementKind.PRAGMA);
        assertThat(read.rows()).hasSize(1);
        assertNothingReported(run("pragma foreign_keys = off"), StatementKind.PRAGMA);
    }

    @Test
    void transactionControlIsTransaction() {
        for (String control : List.of("begin", "savepoint s", "rollback to s", "release s", "commit",
                "savepoint outside", "release outside", "begin", "rollback")) {
            assertNothingReported(run(control), StatementKind.TRANSACTION);
        }
    }

    @Test
    void aPreparedStatementReportsItsKindOnEveryRun() {
        var insert = session.prepare("insert into t values (?, ?)");
        assertWrite(insert.execute(3L, "c"), StatementKind.INSERT, 1);
        assertWrite(insert.execute(4L, "d"), StatementKind.INSERT, 1);
        assertThat(session.prepare("select v from t where k = ?").execute(3L).kind()).isEqualTo(StatementKind.QUERY);
    }
}
