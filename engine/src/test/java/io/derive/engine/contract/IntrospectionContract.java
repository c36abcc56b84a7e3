package io.derive.engine.contract;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code schema()} and {@code table_info('t')} (semantics §1, introspection). */
public abstract class IntrospectionContract extends HostContractTest {

    @Test
    void schemaListsTablesWithCanonicalDdl() {
        session.execute("""
                CREATE TABLE Items (id INT PRIMARY KEY, label VARCHAR(20) NOT NULL COLLATE NOCASE DEFAULT 'it''s',
                                    price DECIMAL(10, 2))""");
        assertThat(rows("select type, schema, name, sql, tags from schema()")).containsExactly(row("table", "main", "Items",
                "create table main.Items (id integer not null, label text not null collate nocase default 'it''s', "
                        + "price numeric, primary key (id)) using " + config().defaultHost(), "{}"));
    }

    @Test
    void schemaShowsABagWithoutItsRowId() {
        session.execute("create table b (x, y integer)");
        assertThat(rows("select sql from schema()")).containsExactly(row("create table main.b (x, y integer) using " + config().defaultHost()));
    }

    @Test
    void schemaShowsACompositeDescendingKey() {
        session.execute("create table k (a text, b integer, primary key (b desc, a))");
        assertThat(rows("select sql from schema()")).containsExactly(
                row("create table main.k (a text not null, b integer not null, primary key (b desc, a)) using " + config().defaultHost()));
    }

    @Test
    void schemaShowsAMaterializedViewInItsTableForm() {
        script("""
                create table t (k integer primary key, v text);
                create materialized view m as select k, v from t where k > 0;
                """);
        assertThat(rows("select type, name, sql, tags from schema() where name = 'm'")).containsExactly(row(
                "materialized_view", "m",
                "create table main.m (k integer not null, v text, primary key (k)) using " + config().defaultHost() + " maintained as "
                        + "select k, v from t where k > 0", "{}"));
    }

    @Test
    void schemaListsViewsAfterTables() {
        script("""
                create view v as select 1 as one;
                create table t (k integer primary key);
                """);
        assertThat(rows("select type, name from schema()")).containsExactly(row("table", "t"), row("view", "v"));
    }

    @Test
    void tableInfoDescribesEachDeclaredColumn() {
        session.execute("create table t (a text default 'x', k integer primary key, n real not null, z)");
        assertThat(rows("select cid, name, type, notnull, dflt_value, pk from table_info('t')")).containsExactly(
                row(0L, "a", "text", 0L, "'x'", 0L),
                row(1L, "k", "integer", 1L, null, 1L),
                row(2L, "n", "real", 1L, null, 0L),
                row(3L, "z", "", 0L, null, 0L));
    }

    @Test
    void tableInfoNumbersCompositeKeyColumnsInKeyOrder() {
        session.execute("create table t (a text, b integer, primary key (b, a))");
        assertThat(rows("select name, pk from table_info('t')")).containsExactly(row("a", 2L), row("b", 1L));
    }

    @Test
    void tableInfoOfABagLeavesTheRowIdOut() {
        session.execute("create table b (x integer)");
        assertThat(rows("select name, pk from table_info('b')")).containsExactly(row("x", 0L));
    }

    @Test
    void tableInfoOfAnUnknownTableNamesIt() {
        assertThatThrownBy(() -> session.execute("select * from table_info('nope')")).hasMessageContaining("no such table: nope");
    }
}
