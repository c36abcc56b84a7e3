package io.derive.derby;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.api.Session;
import io.derive.engine.contract.HostContractTest;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What is particular to transactions on the Derby host: readers beside Derby's row locks, and one commit domain with the memory host. */
class DerbyHostTransactionTest extends HostContractTest {

    @Override
    protected DatabaseConfig config() {
        return DatabaseConfig.named("derby-transactions").withDefaultHost("derby")
                .withModule(new DerbyTableModule().withLockTimeout(Duration.ofSeconds(1)));
    }

    @Test
    void aReaderOfAnotherSessionsUncommittedRowReadsTheCommittedValueWithoutWaitingForTheLock() {
        script("""
                create table t (k integer primary key, v text);
                insert into t values (1, 'committed');
                begin;
                update t set v = 'pending' where k = 1;
                """);
        try (Session reader = db.openSession()) {
            assertThat(rows(reader, "select v from t where k = 1")).containsExactly(row("committed"));
            script("commit");
            assertThat(rows(reader, "select v from t where k = 1")).containsExactly(row("pending"));
        }
    }

    @Test
    void derbyTablesOfOneTransactionShareOneDerbyTransaction() {
        script("""
                create table a (k integer primary key);
                create table b (k integer primary key);
                begin;
                insert into a values (1);
                insert into b values (1);
                rollback;
                """);
        assertThat(rows("select (select count(*) from a), (select count(*) from b)")).containsExactly(row(0L, 0L));
    }

    @Test
    void aDerbySourceWithAMemoryViewCommitsAndRollsBackTogether() {
        script("""
                create table s (k integer primary key, v integer) using derby;
                create materialized view m using memory as select k, v * 2 as w from s;
                begin;
                insert into s values (1, 10);
                commit;
                begin;
                insert into s values (2, 20);
                rollback;
                """);
        assertThat(rows("select k, w from m order by k")).containsExactly(row(1L, 20L));
        assertThat(rows("select k, v from s order by k")).containsExactly(row(1L, 10L));
    }

    @Test
    void aMemorySourceWithADerbyViewCommitsAndRollsBackTogether() {
        script("""
                create table s (k integer primary key, v integer) using memory;
                create materialized view m using derby as select k, v * 2 as w from s;
                begin;
                insert into s values (1, 10);
                commit;
                begin;
                insert into s values (2, 20);
                savepoint x;
                insert into s values (3, 30);
                rollback to x;
                commit;
                begin;
                delete from s;
                rollback;
                """);
        assertThat(rows("select k, w from m order by k")).containsExactly(row(1L, 20L), row(2L, 40L));
        assertThat(rows("select k, v from s order by k")).containsExactly(row(1L, 10L), row(2L, 20L));
    }

    @Test
    void nestedSavepointsUndoOnlyTheirOwnWritesOnDerby() {
        script("""
                create table t (k integer primary key, v text);
                create unique index t_v on t (v);
                begin;
                insert into t values (1, 'a');
                savepoint outer_sp;
                update t set v = 'b' where k = 1;
                savepoint inner_sp;
                insert into t values (2, 'a');
                delete from t where k = 1;
                rollback to inner_sp;
                insert into t values (3, 'c');
                rollback to outer_sp;
                insert into t values (4, 'b');
                commit;
                """);
        assertThat(rows("select k, v from t order by v")).containsExactly(row(1L, "a"), row(4L, "b"));
        assertThatThrownBy(() -> script("insert into t values (5, 'a')")).hasMessageContaining("UNIQUE constraint failed");
    }
}
