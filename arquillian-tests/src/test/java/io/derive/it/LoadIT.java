package io.derive.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.derive.it.load.LoadRun;
import io.derive.it.load.Outages;
import io.derive.it.server.LibertyServer;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * R4: eight clients over loopback HTTP, each transaction one call of a container-managed EJB
 * writing through the adapter (inserts, updates and deletes over three source tables, a
 * projection, a group-by and a 1:1 join view, and a ledger row), on each host. Workers own
 * disjoint keys, so no transaction may wait out a lock or fail; at the end the tables hold
 * exactly what the workers' acknowledged transactions wrote and every view equals its body; the
 * {@code mv-verify} job, run on each view while the writers run, finds no drift.
 * And P7: the same EJB insert through the adapter and through a Liberty Derby data source with a
 * trigger, timed side by side. {@code -Pload} runs 10,000 transactions per worker, {@code mvn
 * verify} 500.
 */
class LoadIT {
    private static final Logger LOG = System.getLogger(LoadIT.class.getName());
    private static final int WORKERS = 8;
    private static final int TRANSACTIONS = Integer.getInteger("derive.load.transactions", 500);
    private static final Duration TIME_LIMIT = Duration.ofMinutes(30);
    private static final int P7_WARMUP = 500;
    private static final int P7_INSERTS = 2_000;
    /** The JDBC side of P7: a Derby database on disk, as Derive's own is. */
    private static final String FLOOR_DATA_SOURCE = """
            <server>
              <dataSource id="floorDB" jndiName="jdbc/floor" type="javax.sql.ConnectionPoolDataSource">
                <jdbcDriver libraryRef="derbyLib"/>
                <properties.derby.embedded databaseName="${server.output.dir}/databases/floor" createDatabase="create"/>
              </dataSource>
            </server>
            """;

    private static final LibertyServer server = LibertyServer.fromBuild();

    @BeforeAll
    static void startAFreshServer() {
        server.reset();
        server.deploy(TestApplication.ear());
        server.configure("floor", FLOOR_DATA_SOURCE);
        server.start();
    }

    @AfterAll
    static void stopServer() {
        server.stop();
    }

    @ParameterizedTest(name = "{0} host")
    @ValueSource(strings = {"derby", "memory"})
    void manyClientsLoseNoUpdateWaitOutNoLockAndLeaveEveryViewEqualToItsBody(String host) throws Exception {
        LoadSchema schema = new LoadSchema(server, host + "_");
        schema.create(host, WORKERS, false);

        LoadRun run = LoadRun.start(server, new LoadRun.Settings(schema.prefix(), WORKERS, TRANSACTIONS, TIME_LIMIT, false),
                Outages.none());
        Map<String, String> audits = new LinkedHashMap<>();
        for (String view : List.of("in_transit", "per_customer", "order_regions")) {
            audits.put(view, schema.verifyJob(view));
        }
        LoadRun.Report report = run.awaitReport();

        LOG.log(Level.INFO, "R4 {0} host, {1} workers x {2} transactions: {3}", host, WORKERS, TRANSACTIONS, report);
        assertThat(report.failures()).as("failed transactions").isEmpty();
        assertThat(report.lockTimeouts()).isZero();
        assertThat(report.acknowledged()).hasSize(WORKERS * TRANSACTIONS);
        assertThat(schema.lostUpdates(report.models())).as("lost updates").isEmpty();
        assertThat(schema.viewMismatches()).as("rows a view and its body do not share").allSatisfy((view, rows) ->
                assertThat(rows).as(view).isZero());
        assertThat(schema.deriveLedger()).containsExactlyInAnyOrderElementsOf(report.acknowledged());
        assertThat(audits).as("mv-verify run while the writers ran").allSatisfy((view, exit) ->
                assertThat(exit).as(view).isEqualTo("no drift"));
    }

    @Test
    void p7AnEjbInsertThroughTheAdapterTakesAboutWhatTheSameInsertAndATriggerTakeThroughJdbc() throws Exception {
        answer("setupInsertPair", "");
        answer("insertPair", "&n=" + P7_WARMUP + "&from=0");

        Map<String, String> measured = answer("insertPair", "&n=" + P7_INSERTS + "&from=" + P7_WARMUP);

        long[] derive = nanos(measured.get("deriveNanos"));
        long[] jdbc = nanos(measured.get("jdbcNanos"));
        assertThat(derive).hasSize(P7_INSERTS);
        assertThat(jdbc).hasSize(P7_INSERTS);
        LOG.log(Level.INFO, String.format("P7 EJB insert, %d each, median: adapter %.3f ms, JDBC + trigger %.3f ms, ratio %.2f;"
                        + " mean: adapter %.3f ms, JDBC + trigger %.3f ms, ratio %.2f", P7_INSERTS,
                median(derive) / 1e6, median(jdbc) / 1e6, (double) median(derive) / median(jdbc),
                mean(derive) / 1e6, mean(jdbc) / 1e6, mean(derive) / mean(jdbc)));
        Map<String, String> counts = answer("insertPairCounts", "");
        int rows = P7_WARMUP + P7_INSERTS;
        assertThat(counts).containsEntry("deriveSource", "" + rows).containsEntry("deriveView", "" + rows)
                .containsEntry("jdbcSource", "" + rows).containsEntry("jdbcCopy", "" + rows);
    }

    private static Map<String, String> answer(String op, String parameters) throws Exception {
        HttpResponse<String> response = server.get("/derive-test/load?op=" + op + parameters);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return Scenarios.answer(response.body());
    }

    private static long[] nanos(String list) {
        return Arrays.stream(list.split(",")).mapToLong(Long::parseLong).toArray();
    }

    private static long median(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    private static double mean(long[] values) {
        return Arrays.stream(values).average().orElseThrow();
    }
}
