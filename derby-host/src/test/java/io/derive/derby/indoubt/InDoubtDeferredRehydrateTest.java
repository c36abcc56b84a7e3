package io.derive.derby.indoubt;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.Derive;
import io.derive.engine.RehydrateMode;
import io.derive.engine.api.BranchId;
import io.derive.engine.api.Database;
import io.derive.engine.api.RehydrateReport;
import io.derive.engine.api.Session;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static io.derive.derby.indoubt.DurableDirectory.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

/**
 * With refills deferred, a view that waited for an in-doubt branch and would be refilled once
 * it is decided is left pending instead, as it would have been at the open; one adoptable then
 * is adopted. A view over a pending one is pending too: it is not refilled from rows nobody trusts.
 */
class InDoubtDeferredRehydrateTest {
    @TempDir
    Path directory;

    @Test
    void viewsThatWouldBeRefilledOnceTheBranchIsDecidedArePendingUntilRehydrated() {
        DurableDirectory database = new DurableDirectory(directory);
        database.run("""
                create table t (k integer primary key, v text, n integer not null);
                create materialized view derby_mv as select k, v from t where n > 0;
                create materialized view memory_mv using memory as select n, count(*) as c from t group by n;
                create materialized view over_memory as select n, c from memory_mv where c > 0;
                insert into t values (1, 'one', 1), (2, 'two', 2);
                """);
        BranchId xid = database.leavePrepared("""
                insert into t values (3, 'three', 3);
                update t set v = 'uno', n = 2 where k = 1;
                """);
        try (Database db = Derive.open(DatabaseConfig.inDirectory(directory).withRehydrateMode(RehydrateMode.DEFERRED));
             Session s = db.openSession()) {
            assertThat(db.rehydrateReport().views()).extracting(RehydrateReport.Outcome::action)
                    .containsOnly(RehydrateReport.Action.WAITING);
            db.commitInDoubt(xid);
            assertThat(db.rehydrateReport().views()).extracting(RehydrateReport.Outcome::name, RehydrateReport.Outcome::action,
                    RehydrateReport.Outcome::reason).containsExactlyInAnyOrder(
                            tuple("derby_mv", RehydrateReport.Action.ADOPTED, null),
                            tuple("memory_mv", RehydrateReport.Action.PENDING, "its host 'memory' keeps nothing across opens"),
                            tuple("over_memory", RehydrateReport.Action.PENDING, "source main.memory_mv is not in the same derby database"));
            assertThat(rows(s, "select name, round from rehydrate_pending()"))
                    .containsExactly(List.of("memory_mv", 1L), List.of("over_memory", 2L));
            assertEqualsItsBody(s, "derby_mv", "select k, v from t where n > 0");
            assertThatThrownBy(() -> s.execute("select * from over_memory"))
                    .hasMessageContaining("materialized view 'main.over_memory' is being rehydrated");
            assertThatThrownBy(() -> s.execute("insert into t values (4, 'four', 4)"))
                    .hasMessageContaining("materialized view 'main.memory_mv' is being rehydrated");

            s.execute("rehydrate materialized view memory_mv");
            s.execute("rehydrate materialized view over_memory");
            assertEqualsItsBody(s, "memory_mv", "select n, count(*) as c from t group by n");
            assertEqualsItsBody(s, "over_memory", "select n, c from memory_mv where c > 0");
            s.execute("insert into t values (4, 'four', 4)");
            assertEqualsItsBody(s, "over_memory", "select n, c from memory_mv where c > 0");
            assertThat(db.status().pendingRehydrates()).isZero();
        }
    }

    private static void assertEqualsItsBody(Session s, String view, String body) {
        assertThat(rows(s, "select * from " + view + " except " + body)).as(view + " beyond its body").isEmpty();
        assertThat(rows(s, body + " except select * from " + view)).as(view + " missing body rows").isEmpty();
        assertThat(rows(s, "select count(*) from " + view)).isEqualTo(rows(s, "select count(*) from (" + body + ")"));
    }
}
