package io.derive.derby;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.HostContractTest;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code using derby(collation = …)}: the key collation of a Derby table, agreeing with the memory host under the same collation. */
class DerbyKeyCollationTest extends HostContractTest {

    @Override
    protected DatabaseConfig config() {
        return DerbyHosts.config("derby-key-collation");
    }

    @Test
    void aNocaseKeyCollapsesKeysThatDifferOnlyInAsciiCase() {
        script("""
                create table t (k text primary key, v integer) using derby(collation = 'NOCASE');
                insert into t values ('Ann', 1), ('bob', 2), ('Émile', 3);
                """);
        assertThatThrownBy(() -> session.execute("insert into t values ('ANN', 9)")).hasMessageContaining("UNIQUE constraint failed: t.k");
        assertThat(rows("select v from t where k = 'aNN'")).containsExactly(row(1L));
        assertThat(rows("select k from t where k = 'émile'")).isEmpty();
        assertThat(rows("select sql from schema()")).containsExactly(row(
                "create table main.t (k text not null collate nocase, v integer, primary key (k)) using derby"));
    }

    @Test
    void theDerbyAndMemoryHostsOrderAndCollapseNocaseKeysAlike() {
        script("""
                create table d (k text primary key) using derby(collation = 'NOCASE');
                create table m (k text collate nocase primary key) using memory;
                insert or replace into d values ('b'), ('A'), ('a'), ('_'), ('B'), ('[');
                insert or replace into m values ('b'), ('A'), ('a'), ('_'), ('B'), ('[');
                """);
        assertThat(rows("select k from d order by k")).isEqualTo(rows("select k from m order by k"))
                .containsExactly(row("["), row("_"), row("a"), row("B"));
    }

    @Test
    void theBinaryDefaultKeepsCaseDistinctKeys() {
        script("""
                create table t (k text primary key) using derby(collation = 'BINARY');
                insert into t values ('a'), ('A');
                """);
        assertThat(rows("select k from t order by k")).containsExactly(row("A"), row("a"));
    }

    @Test
    void anUnknownCollationIsRefusedAtItsSite() {
        assertThatThrownBy(() -> session.execute("create table t (k text primary key) using derby(collation = 'french')"))
                .hasMessageContaining("collation must be 'BINARY' or 'NOCASE', not 'french'").hasMessageEndingWith("at 1:37");
        assertThat(rows("select count(*) from schema()")).containsExactly(row(0L));
    }
}
