package io.derive.engine.contract;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code pragma default_column_nullability} flips the default of later DDL (semantics §1). */
public abstract class DefaultColumnNullabilityContract extends HostContractTest {

    private java.util.List<java.util.List<Object>> notNulls(String table) {
        return rows("select name, notnull from table_info('" + table + "')");
    }

    @Test
    void columnsAreNullableByDefault() {
        session.execute("create table t (k integer primary key, v text)");
        assertThat(notNulls("t")).containsExactly(row("k", 1L), row("v", 0L));
        assertThat(rows("pragma default_column_nullability")).containsExactly(row("nullable"));
    }

    @Test
    void notNullMakesUndeclaredColumnsNotNullButRespectsAnExplicitNull() {
        script("""
                pragma default_column_nullability = 'not_null';
                create table t (k integer primary key, v text, w text null);
                """);
        assertThat(notNulls("t")).containsExactly(row("k", 1L), row("v", 1L), row("w", 0L));
        assertThatThrownBy(() -> session.execute("insert into t (k, w) values (1, 'x')"))
                .hasMessageContaining("NOT NULL constraint failed: t.v");
    }

    @Test
    void thePragmaAppliesToColumnsAddedLater() {
        script("""
                create table t (k integer primary key);
                pragma default_column_nullability = 'not_null';
                alter table t add column v text default 'd';
                pragma default_column_nullability = 'nullable';
                alter table t add column w text;
                """);
        assertThat(notNulls("t")).containsExactly(row("k", 1L), row("v", 1L), row("w", 0L));
    }

    @Test
    void anUnknownNullabilityIsRefused() {
        assertThatThrownBy(() -> session.execute("pragma default_column_nullability = 'sometimes'"))
                .hasMessageContaining("default_column_nullability must be 'not_null' or 'nullable'");
    }
}
