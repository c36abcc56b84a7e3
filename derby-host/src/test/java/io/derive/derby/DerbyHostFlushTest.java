package io.derive.derby;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.Derive;
import io.derive.engine.api.BranchId;
import io.derive.engine.api.CommitVote;
import io.derive.engine.api.Database;
import io.derive.engine.api.DeriveException;
import io.derive.engine.api.Row;
import io.derive.engine.api.Session;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The Derby host's deferred write path: a transaction's writes reach Derby in one flush when it
 * prepares, while each value and key is checked by the statement that writes it.
 */
class DerbyHostFlushTest {
    private final DerbyTableModule module = new DerbyTableModule().withLockTimeout(Duration.ofSeconds(1));
    private Database db;
    private Session session;

    @BeforeEach
    void open() {
        db = Derive.open(DatabaseConfig.named("derby-flush").withDefaultHost("derby").withModule(module));
        session = db.openSession();
    }

    @AfterEach
    void close() {
        session.close();
        db.close();
    }

    @Test
    void aValueTooLongFailsItsOwnStatementAndTheTransactionGoesOn() {
        session.execute("create table t (k integer primary key, s text)");
        session.begin();
        session.execute("insert into t values (1, 'fits')");
        assertThatThrownBy(() -> session.execute("insert into t values (2, ?)", "x".repeat(ColumnCodec.MAX_LENGTH + 1)))
                .isInstanceOf(DeriveException.class)
                .hasMessageContaining("value too long for column t.s")
                .satisfies(e -> assertThat(((DeriveException) e).code()).isEqualTo(DeriveException.DATA));
        assertThat(session.inTransaction()).isTrue();
        session.execute("insert into t values (3, 'also fits')");
        session.commit();
        assertThat(values("select k from t order by k")).containsExactly(List.of(1L), List.of(3L));
    }

    @Test
    void aKeyTooLongForDerbyFailsItsOwnStatementAndTheTransactionGoesOn() {
        session.execute("create table t (a text, b text, primary key (a, b))");
        session.begin();
        session.execute("insert into t values ('a', 'b')");
        String half = "y".repeat(20_000);
        assertThatThrownBy(() -> session.execute("insert into t values (?, ?)", half, half))
                .isInstanceOf(DeriveException.class)
                .hasMessageContaining("key too long for table main.t")
                .satisfies(e -> assertThat(((DeriveException) e).code()).isEqualTo(DeriveException.DATA));
        session.commit();
        assertThat(values("select a, b from t")).containsExactly(List.of("a", "b"));
    }

    @Test
    void aReaderDoesNotWaitForAPreparedBranchThatFlushedMoreRowsThanDerbyEscalatesAt() throws Exception {
        session.execute("create table t (k integer primary key, v integer)");
        session.execute("insert into t values (0, 0)");
        session.begin(new BranchId(0x4445, new byte[] {1}, new byte[] {2}));
        for (int k = 1; k <= 6_000; k++) {
            session.execute("insert into t values (?, ?)", k, k);
        }
        assertThat(session.prepareCommit()).isEqualTo(CommitVote.PREPARED);
        // Derby's default would turn 5,000 row locks into a table lock, which a reader waits for.
        List<List<Object>> read = CompletableFuture.supplyAsync(() -> {
            try (Session reader = db.openSession()) {
                return reader.execute("select count(*) from t").rows().stream().map(Row::values).toList();
            }
        }).get(30, TimeUnit.SECONDS);
        assertThat(read).containsExactly(List.of(1L));
        session.commit();
        assertThat(values("select count(*) from t")).containsExactly(List.of(6_001L));
    }

    @Test
    void aFlushFindingARowCountOtherThanOneFailsNamingTheTable() throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:derby:memory:flush-check;create=true");
             Statement s = c.createStatement()) {
            s.execute("create table t (k int primary key, v int)");
            Flush flush = new Flush(new DerbyTableModule());
            try (PreparedStatement update = c.prepareStatement("update t set v = ? where k = ?")) {
                update.setInt(1, 1);
                update.setInt(2, 42);
                int pending = flush.add(update, 0, "table main.t");
                assertThatThrownBy(() -> flush.run(update, pending, "table main.t"))
                        .isInstanceOf(DeriveException.class)
                        .hasMessageContaining("the flush of table main.t found Derby out of step with the engine")
                        .hasMessageContaining("changed 0 rows, not 1");
            }
        }
    }

    /** One read, of the source row the write changes (or finds absent); the views' rows are known, not read. */
    @Test
    void aCommittedSingleRowWriteWithTwoViewsRunsOneReadAndOneWritePerTable() {
        session.execute("""
                create table src (k integer primary key, g integer not null, v integer not null)
                """);
        session.execute("create materialized view mv_proj as select k, v from src");
        session.execute("create materialized view mv_group as select g, count(*) as n, sum(v) as total from src group by g");
        session.execute("insert into src values (1, 1, 1)");
        for (String write : List.of("insert into src values (2, 1, 2)", "update src set v = 3 where k = 2",
                "delete from src where k = 2")) {
            long before = module.statementsExecuted();
            session.execute(write);
            long statements = module.statementsExecuted() - before;
            System.getLogger(DerbyHostFlushTest.class.getName()).log(System.Logger.Level.INFO,
                    "Derby statements for '" + write + "' with a projection and a group-by view: " + statements);
            assertThat(statements).as(write).isEqualTo(4);
        }
    }

    private List<List<Object>> values(String sql) {
        return session.execute(sql).rows().stream().map(Row::values).toList();
    }
}
