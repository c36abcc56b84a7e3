package io.derive.engine.contract;

import io.derive.engine.api.DeriveException;
import io.derive.engine.api.Result;
import io.derive.engine.api.Session;
import io.derive.engine.api.StatementKind;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code verify materialized view n [repair] [where …]}: a view and a fresh evaluation of its body, read in
 * one snapshot, agree for every view the engine maintains, whatever other sessions are doing.
 * (Drift written behind the engine's back is shown on the Derby host, whose tables another
 * client can change.)
 */
public abstract class MaterializedViewVerifyContract extends HostContractTest {

    @BeforeEach
    void views() {
        script("""
                create table dim (d integer primary key, name text not null);
                create table src (k integer primary key, g integer not null, v integer not null);
                insert into dim values (0, 'zero'), (1, 'one'), (2, 'two');
                create materialized view proj as select k, v from src where v > 0;
                create materialized view per_g as select g, count(*) as n, sum(v) as total from src group by g;
                create materialized view joined as select s.k, d.name from src s left join dim d on d.d = s.g;
                create materialized view ranked as select g, v from src union select d, 0 from dim;
                insert into src values (1, 0, 5), (2, 1, -1), (3, 2, 7), (4, 1, 2);
                update src set v = v + 1 where g = 1;
                delete from src where k = 3;
                update dim set name = 'uno' where d = 1;
                """);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"proj", "per_g", "joined", "ranked"})
    void aViewTheEngineMaintainsHasNoDriftOnEveryArm(String view) {
        Result verified = session.execute("verify materialized view " + view);

        assertThat(verified.kind()).isEqualTo(StatementKind.VERIFY);
        assertThat(verified.columns()).containsExactly("drift", "key", "stored", "expected");
        assertThat(verified.rows()).isEmpty();
        assertThat(verified.updateCount()).isZero();
    }

    @Test
    void aRepairWithNoDriftWritesNothing() {
        session.execute("begin");
        assertThat(session.execute("verify materialized view per_g repair").rows()).isEmpty();

        assertThat(rows("select object, mode from locks() where object like '%per_g%'")).as("no row of the view written").isEmpty();
        session.execute("rollback");
    }

    @Test
    void anotherSessionsUncommittedWritesCauseNoDriftAndNoWait() {
        session.execute("begin");
        session.execute("insert into src values (10, 2, 10)");
        session.execute("update src set v = 100 where k = 1");
        try (Session other = db.openSession()) {
            assertThat(other.execute("verify materialized view proj").rows()).isEmpty();
            assertThat(other.execute("verify materialized view per_g").rows()).isEmpty();
        }
        assertThat(session.execute("verify materialized view per_g").rows()).as("its own writes, maintained").isEmpty();
        session.execute("rollback");
    }

    @Test
    void verifyingBesideCommittingWritersNeverFindsDrift() throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger written = new AtomicInteger();
        ExecutorService writer = Executors.newSingleThreadExecutor();
        try {
            Future<Integer> writes = writer.submit(() -> {
                try (Session s = db.openSession()) {
                    for (int n = 0; !stop.get() && n < 2_000; n = written.incrementAndGet()) {
                        s.execute("insert into src values (?, ?, ?)", 100L + n, (long) (n % 3), (long) n);
                        s.execute("update src set g = ? where k = ?", (long) ((n + 1) % 3), 100L + n / 2);
                    }
                }
                return written.get();
            });
            // Verifies go on until the writer has committed a good part of its writes meanwhile, or ended.
            for (int i = 0; i < 50 || written.get() < 100 && !writes.isDone(); i++) {
                assertThat(session.execute("verify materialized view per_g").rows()).as("verify %d", i).isEmpty();
                assertThat(session.execute("verify materialized view joined").rows()).as("verify %d", i).isEmpty();
            }
            stop.set(true);
            assertThat(writes.get(60, TimeUnit.SECONDS)).isGreaterThanOrEqualTo(100);
        } finally {
            stop.set(true);
            writer.shutdownNow();
        }
    }

    @Test
    void verifyReportListsEachViewsLastVerificationWithItsDriftCounts() {
        session.execute("verify materialized view proj");
        session.execute("verify materialized view per_g repair");
        session.execute("verify materialized view proj");

        assertThat(rows("select schema, name, missing, extra, differs, repaired, sample from verify_report()"))
                .containsExactly(row("main", "per_g", 0L, 0L, 0L, false, ""), row("main", "proj", 0L, 0L, 0L, false, ""));
        assertThat(rows("select count(*) from verify_report() where verified_at like '____-__-__T%Z'")).containsExactly(row(2L));
    }

    @Test
    void aVerifyOfAKeyRangeAuditsThatRangeAndReportsItAsWritten() {
        assertThat(session.execute("verify materialized view proj where k > ? and k <= ?", 1, 4).rows()).isEmpty();
        assertThat(session.execute("verify materialized view per_g repair where g = 1").rows()).isEmpty();

        assertThat(rows("select name, key_range from verify_report()"))
                .containsExactly(row("per_g", "g = 1"), row("proj", "k > ? and k <= ?"));
        session.execute("verify materialized view proj");
        assertThat(rows("select key_range from verify_report() where name = 'proj'")).containsExactly(row((Object) null));
    }

    @Test
    void aVerifyWhereReadingAColumnOutsideTheKeyIsRefusedWithItsPosition() {
        assertThatThrownBy(() -> session.execute("verify materialized view proj where k > 1 and v > 0"))
                .isInstanceOf(DeriveException.class)
                .hasMessage("verify of materialized view 'main.proj': its where may compare only the view's key columns (k)"
                        + " with values, but it reads column v at 1:37");
    }

    @Test
    void aVerifyWhereHoldingASubqueryOrRandomIsRefused() {
        assertThatThrownBy(() -> session.execute("verify materialized view proj where k in (select k from src)"))
                .isInstanceOf(DeriveException.class).hasMessageEndingWith("but it holds a subquery at 1:37");
        assertThatThrownBy(() -> session.execute("verify materialized view proj where k > random()"))
                .isInstanceOf(DeriveException.class).hasMessageEndingWith("but it is not deterministic at 1:37");
        assertThatThrownBy(() -> session.execute("verify materialized view proj where nope = 1"))
                .isInstanceOf(DeriveException.class).hasMessageContaining("no such column: nope");
    }

    @Test
    void aNameThatIsNoMaterializedViewIsRefusedWithItsPosition() {
        assertThatThrownBy(() -> session.execute("verify materialized view nope"))
                .isInstanceOf(DeriveException.class).hasMessage("no such materialized view: nope at 1:26");
        assertThatThrownBy(() -> session.execute("verify materialized view src"))
                .isInstanceOf(DeriveException.class).hasMessage("'src' is a table, not a materialized view at 1:26");
    }

    @Test
    void aStaleViewIsRefusedForItFollowsNoBodyUntilARefresh() {
        session.execute("alter table src drop column v");

        assertThatThrownBy(() -> session.execute("verify materialized view proj"))
                .isInstanceOf(DeriveException.class)
                .hasMessageContaining("materialized view 'main.proj' is stale: its contents follow no body until a refresh");
    }
}
