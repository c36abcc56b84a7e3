package io.derive.derby;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.Derive;
import io.derive.engine.api.BranchId;
import io.derive.engine.api.CommitVote;
import io.derive.engine.api.Database;
import io.derive.engine.api.Row;
import io.derive.engine.api.Session;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Derby groups a table's rows itself for an aggregate of the subset it computes exactly
 * ({@link DerbyAggregate}): one Derby statement instead of a scan of every row, with the same
 * answer, and the engine's scan wherever Derby's rows are not the statement's snapshot.
 */
class DerbyAggregateTest {
    private final DerbyTableModule module = new DerbyTableModule();
    private Database db;
    private Session session;

    @BeforeEach
    void open() {
        db = Derive.open(DatabaseConfig.named("derby-aggregate").withDefaultHost("derby").withModule(module));
        session = db.openSession();
        session.execute("create table s (id integer primary key, k integer, v integer, t text)");
        session.begin();
        for (long id = 1; id <= 1_000; id++) {
            session.execute("insert into s values (?, ?, ?, ?)", id, id % 7 == 0 ? null : id % 10, id % 13 == 0 ? null : id, id % 2 == 0 ? "a " : null);
        }
        session.commit();
    }

    @AfterEach
    void close() {
        session.close();
        db.close();
    }

    @Test
    void aGroupedAggregateOfAWholeTableIsDerbysOneStatementWithTheEnginesAnswer() {
        long statements = module.statementsExecuted();
        List<List<Object>> byDerby = values("select k, count(*), count(v), sum(v), min(v), max(v), count(t) from s group by k");
        assertThat(module.statementsExecuted() - statements).isEqualTo(1);
        assertThat(module.aggregatesComputedByDerby()).isEqualTo(1);

        // k + 0 and v + 0 are not columns: the engine groups these itself, reading every row.
        assertThat(byDerby).hasSize(11).isEqualTo(values(
                "select k + 0, count(*), count(v + 0), sum(v + 0), min(v + 0), max(v + 0), count(t) from s group by k + 0"));
        assertThat(module.aggregatesComputedByDerby()).isEqualTo(1);
    }

    @Test
    void aMaterializedViewIsFilledAndRefreshedFromDerbysGroups() {
        session.execute("create materialized view g as select k, count(*) as n, sum(v) as total from s group by k");
        session.execute("update s set v = v + 1 where id <= 10");
        long before = module.statementsExecuted();
        session.execute("refresh materialized view g");

        assertThat(module.statementsExecuted() - before).as("Derby statements of the refresh").isLessThan(10);
        assertThat(module.aggregatesComputedByDerby()).as("the fill and the refresh").isEqualTo(2);
        assertThat(values("select k, n, total from g order by k"))
                .isEqualTo(values("select k + 0, count(*), sum(v + 0) from s group by k + 0 order by 1"));
    }

    @Test
    void aTransactionsOwnWritesAreCountedByTheEngine() {
        session.begin();
        session.execute("insert into s values (1001, 1, 1, null)");

        assertThat(values("select count(*) from s")).containsExactly(List.of(1_001L));
        assertThat(module.aggregatesComputedByDerby()).isZero();
        session.rollback();
        assertThat(values("select count(*) from s")).containsExactly(List.of(1_000L));
        assertThat(module.aggregatesComputedByDerby()).isEqualTo(1);
    }

    @Test
    void aPreparedWriterWhoseRowsDerbyHoldsUncommittedIsNotCounted() {
        try (Session writer = db.openSession()) {
            writer.begin(new BranchId(0x4445, new byte[] {7}, new byte[] {1}));
            writer.execute("insert into s values (1001, 1, 1, null)");
            writer.execute("delete from s where id <= 10");
            assertThat(writer.prepareCommit()).isEqualTo(CommitVote.PREPARED);

            assertThat(values("select count(*), sum(v) from s")).containsExactly(List.of(1_000L, sum(1, 1_000)));
            assertThat(module.aggregatesComputedByDerby()).isZero();

            writer.commit();
        }
        assertThat(values("select count(*), sum(v) from s")).containsExactly(List.of(991L, sum(11, 1_000) + 1));
        assertThat(module.aggregatesComputedByDerby()).isEqualTo(1);
    }

    @Test
    void aSumThatSomeOrderOfAddingCouldOverflowIsLeftToTheEngine() {
        session.execute("create table big (id integer primary key, v integer)");
        // Derby adds in the order rows came, -1 first, and would reach the greatest integer; the
        // engine adds in key order and passes it at the second row.
        session.execute("insert into big values (3, -1)");
        session.execute("insert into big values (1, 9223372036854775807)");
        session.execute("insert into big values (2, 1)");

        assertThatThrownBy(() -> session.execute("select sum(v) from big")).hasMessageContaining("integer overflow");
        assertThat(module.aggregatesComputedByDerby()).isZero();
    }

    @Test
    void aSumOverValuesWrittenAfterItsColumnWasBoundedIsCheckedAgainstThem() {
        session.execute("create table big (id integer primary key, v integer)");
        session.execute("insert into big values (9, 1)");
        assertThat(values("select sum(v) from big")).containsExactly(List.of(1L));
        assertThat(module.aggregatesComputedByDerby()).as("the read that bounds v").isEqualTo(1);

        // As above: Derby's order would not overflow, the engine's key order does.
        session.execute("insert into big values (3, -2)");
        session.execute("insert into big values (1, 9223372036854775806)");
        session.execute("insert into big values (2, 2)");

        assertThatThrownBy(() -> session.execute("select sum(v) from big")).hasMessageContaining("integer overflow");
        assertThat(module.aggregatesComputedByDerby()).isEqualTo(1);
    }

    @Test
    void aModuleWithoutAggregatesInDerbyLeavesThemToTheEngine() {
        DerbyTableModule engineOnly = new DerbyTableModule().withAggregatesInDerby(false);
        try (Database other = Derive.open(DatabaseConfig.named("derby-aggregate-off").withDefaultHost("derby").withModule(engineOnly));
             Session s = other.openSession()) {
            s.execute("create table t (k integer primary key, g integer)");
            s.execute("insert into t values (1, 1), (2, 1), (3, 2)");

            assertThat(s.execute("select g, count(*) from t group by g").rows().stream().map(Row::values).toList())
                    .containsExactly(List.of(1L, 2L), List.of(2L, 1L));
            assertThat(engineOnly.aggregatesComputedByDerby()).isZero();
        }
    }

    /** The sum of {@code v} for ids {@code from..to}, leaving out the NULLs of every 13th. */
    private static long sum(long from, long to) {
        long total = 0;
        for (long id = from; id <= to; id++) {
            total += id % 13 == 0 ? 0 : id;
        }
        return total;
    }

    private List<List<Object>> values(String sql) {
        return session.execute(sql).rows().stream().map(Row::values).toList();
    }
}
