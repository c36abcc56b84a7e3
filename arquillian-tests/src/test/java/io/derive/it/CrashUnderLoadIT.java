package io.derive.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.derive.it.load.LoadRun;
import io.derive.it.load.Outages;
import io.derive.it.server.LibertyServer;
import io.derive.it.server.Readiness;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import jakarta.json.Json;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * R2: the load of {@link LoadIT} on the Derby host, each transaction also writing its ledger row
 * to jdbc/second (a Derby XA data source on disk), so that every commit is two-phase; meanwhile
 * the server JVM is killed with SIGKILL at random moments and started again. After every restart
 * each view equals its body — a memory-hosted one too, refilled from its Derby sources — and at
 * the end every acknowledged transaction is in both ledgers, none is in one only, and the tables
 * hold exactly what the committed transactions wrote. {@code -Pload} kills 20 times, {@code mvn
 * verify} 3.
 */
class CrashUnderLoadIT {
    private static final Logger LOG = System.getLogger(CrashUnderLoadIT.class.getName());
    private static final int WORKERS = 8;
    private static final int KILLS = Integer.getInteger("derive.load.kills", 3);
    private static final Duration TIME_LIMIT = Duration.ofMinutes(5L + 2L * KILLS);
    /** Load between a restart and the next kill: 1 to 4 s. */
    private static final int MIN_LOAD_MILLIS = 1_000;
    private static final int MORE_LOAD_MILLIS = 3_000;

    private static final LibertyServer server = LibertyServer.fromBuild();
    private static final AdminSql sql = new AdminSql(server);

    @BeforeAll
    static void startAFreshServer() {
        server.reset();
        server.deploy(TestApplication.ear());
        server.configure("second-on-disk", DropIns.SECOND_ON_DISK);
        server.start();
    }

    @AfterAll
    static void stopServer() {
        server.stop();
    }

    @Test
    void killedUnderTwoPhaseLoadNoTransactionIsHalfCommittedNoneAcknowledgedIsLostAndEveryViewEqualsItsBody() throws Exception {
        LoadSchema schema = new LoadSchema(server, "crash_");
        schema.create("derby", WORKERS, true);
        Outages outages = Outages.planned();
        LoadRun run = LoadRun.start(server, new LoadRun.Settings(schema.prefix(), WORKERS, Integer.MAX_VALUE, TIME_LIMIT, true),
                outages);
        Random random = new Random(20261204L);
        List<Map<String, Long>> mismatchesAfterRestarts = new ArrayList<>();
        for (int kill = 1; kill <= KILLS; kill++) {
            Thread.sleep(MIN_LOAD_MILLIS + random.nextInt(MORE_LOAD_MILLIS));
            outages.down();
            server.kill();
            Readiness restarted = server.start();
            outages.up();
            LOG.log(Level.INFO, "R2 kill {0} of {1}: {2}", kill, KILLS, restarted);
            assertThat(sql.rows("select name, action from rehydrate_report() where name = '" + schema.prefix() + "in_memory'"))
                    .as("the memory-hosted view refilled from its Derby sources at the open")
                    .containsExactly(Json.createArrayBuilder().add(schema.prefix() + "in_memory").add("refilled").build());
            mismatchesAfterRestarts.add(schema.viewMismatches());
        }
        Thread.sleep(MIN_LOAD_MILLIS);
        run.stop();
        LoadRun.Report report = run.awaitReport();

        Set<Long> inDerive = schema.deriveLedger();
        Set<Long> inSecond = schema.secondLedger();
        LOG.log(Level.INFO, "R2 {0} kills: {1}; ledgers: Derive {2}, jdbc/second {3}", KILLS, report, inDerive.size(),
                inSecond.size());
        assertThat(report.failures()).as("transactions that failed outside an outage").isEmpty();
        assertThat(report.halfCommitted()).as("transactions found in one ledger only").isEmpty();
        assertThat(only(inDerive, inSecond)).as("in Derive's ledger only").isEmpty();
        assertThat(only(inSecond, inDerive)).as("in jdbc/second's ledger only").isEmpty();
        assertThat(inDerive).as("every acknowledged transaction is in both ledgers").containsAll(report.acknowledged());
        assertThat(inDerive).as("and so is every in-doubt one found committed, nothing else")
                .hasSize(report.acknowledged().size() + (int) report.committedInDoubt());
        assertThat(schema.lostUpdates(report.models())).as("lost updates").isEmpty();
        assertThat(mismatchesAfterRestarts).as("rows a view and its body do not share, after each restart").allSatisfy(views ->
                assertThat(views.values()).containsOnly(0L));
        assertThat(schema.viewMismatches().values()).as("rows a view and its body do not share, at the end").containsOnly(0L);
    }

    private static Set<Long> only(Set<Long> in, Set<Long> notIn) {
        Set<Long> only = new HashSet<>(in);
        only.removeAll(notIn);
        return only;
    }
}
