package io.derive.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.derive.it.server.LibertyServer;

import java.lang.System.Logger;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The chunked jobs on Liberty. {@code mv-refresh}: each chunk of the body's rows in its own
 * two-phase transaction with the job repository, writers of the sources going on meanwhile, the
 * view published whole at the finish step, restartable after a fault, a stop and a kill -9 of
 * the server, one run per view at a time. {@code mv-attach}: a large plain table's drifted rows
 * reconciled with a body a key range per chunk, the derivation attached at the finish step.
 */
class ChunkedJobsIT {
    private static final Map<String, String> FAULT = Map.of("derive.test.chunkFault", "faulty:3");
    private static final Duration LONG = Duration.ofMinutes(5);
    private static final Logger LOG = System.getLogger(ChunkedJobsIT.class.getName());
    private static final int ROWS = Integer.getInteger("derive.refresh.rows", 50_000);
    private static final int SLICE = 100_000;
    /** The derivation the attach tests attach to table {@code t}, over {@code t_src}. */
    private static final String ATTACHED = "select k, v * 3 as w from %s_src";

    private static final LibertyServer server = LibertyServer.fromBuild();
    private static final AdminSql sql = new AdminSql(server);

    @BeforeAll
    static void startAFreshServer() {
        server.reset();
        server.deploy(TestApplication.ear());
        server.start(FAULT);
    }

    @AfterAll
    static void stopServer() {
        server.stop();
    }

    /** A source of {@code rows} rows on {@code host} and a projection view of it, one view row per source row. */
    private static void viewOver(String name, int rows, String host) throws Exception {
        sql.run("create table " + name + "_src (k integer primary key, g integer not null, v integer not null) using " + host);
        sql.run("insert into " + name + "_src select value, value % 97, value from generate_series(1, " + rows + ")");
        sql.run("create materialized view " + name + " using " + host + " as select k, g, v * 2 as w from " + name + "_src");
    }

    private static JsonObject refreshParameters(String view, int chunkSize) {
        return Json.createObjectBuilder().add("view", view).add("chunkSize", chunkSize).build();
    }

    private static void assertEqualsItsBody(String view) throws Exception {
        assertThat(sql.rows("select count(*) from (select k, g, v * 2 as w from " + view + "_src except select * from "
                + view + ")")).as("rows of the body missing from " + view).hasToString("[[0]]");
        assertThat(sql.rows("select count(*) from (select * from " + view + " except select k, g, v * 2 as w from "
                + view + "_src)")).as("rows of " + view + " not in the body").hasToString("[[0]]");
        assertThat(sql.rows("verify materialized view " + view)).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"derby", "memory"})
    void aStaleViewRefreshedByTheJobEqualsItsBodyOnEachHost(String host) throws Exception {
        String view = "stale_on_" + host;
        viewOver(view, 5_000, host);
        sql.run("alter table " + view + "_src alter column v set data type real");
        sql.run("update " + view + "_src set v = v + 0.5 where k % 3 = 0");

        long id = Jobs.start(server, "mv-refresh", refreshParameters(view, 500));
        JsonObject done = Jobs.awaitEnd(server, id, LONG);

        assertThat(done.getString("batchStatus")).as(done.toString()).isEqualTo("COMPLETED");
        assertThat(done.getString("exitStatus")).as("nothing changed since the chunks were written")
                .isEqualTo("refreshed: 0 rows changed at finish, swapped in");
        JsonObject chunks = Jobs.step(done, "chunks");
        assertThat(chunks.getInt("readCount")).isEqualTo(5_000);
        assertThat(Jobs.progress(done).getInt("chunks")).isEqualTo(10);
        assertThat(Jobs.progress(done).getJsonNumber("percent").doubleValue()).isEqualTo(100.0);
        assertEqualsItsBody(view);
        assertThat(sql.rows("select stale from materialized_views() where name = '" + view + "'")).hasToString("[[false]]");
    }

    @Test
    void libertysOwnBatchApiShowsTheSameExecution() throws Exception {
        viewOver("shown", 1_000, "derby");
        long id = Jobs.start(server, "mv-refresh", refreshParameters("shown", 500));
        JsonObject ours = Jobs.awaitEnd(server, id, LONG);

        JsonObject liberty = Jobs.libertyExecution(id);

        assertThat(liberty.getString("jobName")).isEqualTo("mv-refresh");
        assertThat(liberty.getString("batchStatus")).isEqualTo(ours.getString("batchStatus")).isEqualTo("COMPLETED");
        assertThat(liberty.getString("exitStatus")).isEqualTo(ours.getString("exitStatus"));
    }

    @Test
    void readersSeeAStaleViewsOldContentsUntilTheFinishStepSwapsItIn() throws Exception {
        String view = "old_until_swap";
        viewOver(view, 20_000, "derby");
        sql.run("alter table " + view + "_src alter column v set data type real");
        sql.run("update " + view + "_src set v = 0");
        JsonArray before = sql.rows("select count(*), sum(w) from " + view);

        long id = Jobs.start(server, "mv-refresh", refreshParameters(view, 200));
        int readsWhileRunning = 0;
        while (Jobs.status(server, id).getString("batchStatus").matches("STARTING|STARTED")) {
            JsonArray now = sql.rows("select count(*), sum(w) from " + view);
            JsonObject status = Jobs.status(server, id);
            if (status.getString("batchStatus").equals("STARTED") && Jobs.progress(status).getInt("chunks", 0) > 0
                    && Jobs.step(status, "chunks").getString("batchStatus").equals("STARTED")) {
                assertThat(now).as("read while chunk " + Jobs.progress(status).getInt("chunks") + " was written").isEqualTo(before);
                readsWhileRunning++;
            }
        }

        assertThat(readsWhileRunning).as("reads while the chunks were written").isPositive();
        assertThat(Jobs.awaitEnd(server, id, LONG).getString("batchStatus")).isEqualTo("COMPLETED");
        assertThat(sql.rows("select count(*), sum(w) from " + view)).hasToString("[[20000,0.0]]");
        assertEqualsItsBody(view);
    }

    /** What one write of a writer does: its {@code k}-th. */
    @FunctionalInterface
    private interface Write {
        void run(int k) throws Exception;
    }

    /** How an execution ended, and how many writes committed while it still had chunks to go. */
    private record BesideWriters(JsonObject done, int commitsMidRun) {
    }

    /** Runs {@code write} for k = 1, 2, … on a thread of its own until execution {@code id} ends. */
    private static BesideWriters besideWriters(long id, Write write) throws Exception {
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicInteger commitsMidRun = new AtomicInteger();
        ExecutorService writers = Executors.newSingleThreadExecutor();
        Future<?> writing = writers.submit(() -> {
            for (int k = 1; running.get(); k++) {
                write.run(k);
                JsonObject status = Jobs.status(server, id);
                JsonObject progress = Jobs.progress(status);
                if (status.getString("batchStatus").equals("STARTED") && progress.containsKey("expected")
                        && progress.getInt("position") < progress.getInt("expected")) {
                    commitsMidRun.incrementAndGet();
                }
            }
            return null;
        });
        JsonObject done = Jobs.awaitEnd(server, id, LONG);
        running.set(false);
        writing.get();
        writers.shutdown();
        return new BesideWriters(done, commitsMidRun.get());
    }

    @Test
    void writersCommitWhileTheChunksAreWrittenAndTheViewEndsEqualToItsBody() throws Exception {
        String view = "under_writers";
        viewOver(view, 100_000, "derby");
        long id = Jobs.start(server, "mv-refresh", refreshParameters(view, 200));

        BesideWriters run = besideWriters(id, k -> {
            sql.run("update " + view + "_src set v = v + 1 where k = " + (k * 37 % 100_000 + 1));
            if (k % 5 == 0) {
                sql.run("insert into " + view + "_src values (" + (200_000 + k) + ", 1, " + k + ")");
            }
        });

        assertThat(run.done().getString("batchStatus")).as(run.done().toString()).isEqualTo("COMPLETED");
        assertThat(run.commitsMidRun()).as("writer commits while chunks were still to be written").isGreaterThanOrEqualTo(100);
        assertEqualsItsBody(view);
    }

    @Test
    void aRestartAfterAFaultAfterChunkThreeStartsAtChunkFour() throws Exception {
        viewOver("faulty", 10_000, "derby");
        sql.run("update faulty_src set v = -v");

        long first = Jobs.start(server, "mv-refresh", refreshParameters("faulty", 1_000));
        JsonObject failed = Jobs.awaitEnd(server, first, LONG);
        assertThat(failed.getString("batchStatus")).isEqualTo("FAILED");
        assertThat(failed.getString("exitStatus")).isEqualTo("test fault (derive.test.chunkFault): chunk 4 failed");
        assertThat(Jobs.progress(failed).getInt("chunks")).isEqualTo(3);

        JsonObject restarted = Jobs.awaitEnd(server, Jobs.restart(server, first), LONG);

        assertThat(restarted.getString("batchStatus")).as(restarted.toString()).isEqualTo("COMPLETED");
        assertThat(Jobs.progress(restarted).getInt("firstChunk")).isEqualTo(4);
        assertThat(Jobs.progress(restarted).getInt("chunks")).isEqualTo(10);
        assertThat(Jobs.step(restarted, "chunks").getInt("readCount")).as("rows read by the restart").isEqualTo(7_000);
        assertEqualsItsBody("faulty");
    }

    @Test
    void aChunkThatTimesOutOnALockIsRetriedAndNoRowIsSkipped() throws Exception {
        viewOver("retried", 100_000, "derby");
        long id = Jobs.start(server, "mv-refresh", refreshParameters("retried", 200));
        awaitChunks(id, 1);

        // An intention lock on the run's shadow for 7 s, past the sample server's 5 s lock timeout.
        var held = server.get(Scenarios.path("holdThenRollBack", "retried__refresh",
                "values", URLEncoder.encode("(-1, 0, 0)", StandardCharsets.UTF_8), "millis", "7000"));
        JsonObject done = Jobs.awaitEnd(server, id, LONG);

        assertThat(Scenarios.answer(held.body())).containsEntry("outcome", "ok");
        assertThat(done.getString("batchStatus")).as(done.toString()).isEqualTo("COMPLETED");
        assertThat(Jobs.step(done, "chunks").getInt("rollbackCount")).as("chunks rolled back on the lock timeout and retried")
                .isPositive();
        assertThat(Jobs.progress(done).getInt("position")).isEqualTo(100_000);
        assertEqualsItsBody("retried");
    }

    @Test
    void aStoppedRunRestartsAfterItsLastChunk() throws Exception {
        viewOver("stopped", 30_000, "derby");
        long first = Jobs.start(server, "mv-refresh", refreshParameters("stopped", 300));
        awaitChunks(first, 2);
        Jobs.stop(server, first);
        JsonObject stopped = Jobs.awaitEnd(server, first, LONG);
        assertThat(stopped.getString("batchStatus")).isEqualTo("STOPPED");
        int chunksBefore = Jobs.progress(stopped).getInt("chunks");
        int rowsBefore = Jobs.progress(stopped).getInt("position");
        assertThat(chunksBefore).isBetween(2, 99);

        JsonObject restarted = Jobs.awaitEnd(server, Jobs.restart(server, first), LONG);

        assertThat(restarted.getString("batchStatus")).isEqualTo("COMPLETED");
        assertThat(Jobs.progress(restarted).getInt("firstChunk")).isEqualTo(chunksBefore + 1);
        // A stop ends the chunk being read early, so the rows before the restart need not be whole chunks.
        assertThat(Jobs.step(restarted, "chunks").getInt("readCount")).isEqualTo(30_000 - rowsBefore);
        assertEqualsItsBody("stopped");
    }

    @Test
    void aSecondRunOfTheSameViewIsRefusedWhileTheFirstHoldsItsLease() throws Exception {
        viewOver("leased", 30_000, "derby");
        long first = Jobs.start(server, "mv-refresh", refreshParameters("leased", 300));
        awaitChunks(first, 1);

        JsonObject second = Jobs.awaitEnd(server, Jobs.start(server, "mv-refresh", refreshParameters("leased", 300)), LONG);

        assertThat(second.getString("batchStatus")).isEqualTo("FAILED");
        assertThat(second.getString("exitStatus")).startsWith("materialized view 'main.leased' is being refreshed by run 'mv-refresh:");
        assertThat(Jobs.awaitEnd(server, first, LONG).getString("batchStatus")).isEqualTo("COMPLETED");
        assertEqualsItsBody("leased");
    }

    @Test
    void aRunInterruptedByAKillOfTheServerRestartsAfterItsLastChunk() throws Exception {
        viewOver("killed", 30_000, "derby");
        long first = Jobs.start(server, "mv-refresh", refreshParameters("killed", 300));
        awaitChunks(first, 3);
        server.kill();
        server.start(FAULT);

        JsonObject abandoned = Jobs.status(server, first);
        assertThat(abandoned.getString("batchStatus")).as("marked by Liberty's batch recovery at startup: " + abandoned)
                .isEqualTo("FAILED");
        int chunksBefore = Jobs.progress(abandoned).getInt("chunks");
        assertThat(chunksBefore).isGreaterThanOrEqualTo(3);
        JsonObject restarted = Jobs.awaitEnd(server, Jobs.restart(server, first), LONG);

        assertThat(restarted.getString("batchStatus")).as(restarted.toString()).isEqualTo("COMPLETED");
        assertThat(Jobs.progress(restarted).getInt("firstChunk")).isEqualTo(chunksBefore + 1);
        assertEqualsItsBody("killed");
    }

    private static void staleViewOver(String name) throws Exception {
        sql.run("create table " + name + "_src (k integer primary key, g integer not null, v integer not null)");
        // In slices: one request of the admin API must end within its HTTP timeout, also for 1M rows.
        for (int from = 1; from <= ROWS; from += SLICE) {
            sql.run("insert into " + name + "_src select value, value % 97, value from generate_series(" + from + ", "
                    + Math.min(ROWS, from + SLICE - 1) + ")");
        }
        sql.run("create materialized view " + name + " as select k, g, v * 2 as w from " + name + "_src");
        sql.run("alter table " + name + "_src alter column v set data type real");
        for (int from = 1; from <= ROWS; from += SLICE) {
            sql.run("update " + name + "_src set v = v + 0.5 where k between " + from + " and " + (from + SLICE - 1)
                    + " and k % 2 = 0");
        }
    }

    /**
     * P10: the job over a stale view of {@code derive.refresh.rows} rows (50,000 in {@code mvn
     * verify}, 1M with {@code -Pload}) beside the one-statement refresh of an identical view, a
     * writer committing throughout. Asserts what the figures rest on and logs them; no time is
     * asserted.
     */
    @Test
    void theChunkedJobBesideTheOneStatementRefreshOfTheSameView() throws Exception {
        staleViewOver("by_job");
        staleViewOver("by_statement");
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicInteger commits = new AtomicInteger();
        ExecutorService writers = Executors.newSingleThreadExecutor();
        long id = Jobs.start(server, "mv-refresh", Json.createObjectBuilder().add("view", "by_job").add("chunkSize", 10_000).build());
        Future<?> writing = writers.submit(() -> {
            for (int k = 1; running.get(); k++) {
                sql.run("update by_job_src set v = v + 1 where k = " + (k * 7919 % ROWS + 1));
                commits.incrementAndGet();
            }
            return null;
        });
        JsonObject job = Jobs.awaitEnd(server, id, Duration.ofMinutes(30));
        running.set(false);
        writing.get();
        writers.shutdown();
        long statementStart = System.nanoTime();
        sql.run("refresh materialized view by_statement");
        double statementSeconds = (System.nanoTime() - statementStart) / 1e9;

        assertThat(job.getString("batchStatus")).as(job.toString()).isEqualTo("COMPLETED");
        assertThat(sql.rows("verify materialized view by_job")).isEmpty();
        assertThat(sql.rows("verify materialized view by_statement")).isEmpty();
        assertThat(commits.get()).as("writer commits during the job").isPositive();
        double jobSeconds = Duration.between(Instant.parse(job.getString("started")), Instant.parse(job.getString("ended")))
                .toMillis() / 1000.0;
        LOG.log(Level.INFO, String.format("P10 over %,d rows: job %.1f s (%,.0f rows/s, %d chunks), one statement %.1f s"
                        + " (%,.0f rows/s): %.2fx; %d writer commits during the job", ROWS, jobSeconds, ROWS / jobSeconds,
                Jobs.progress(job).getInt("chunks"), statementSeconds, ROWS / statementSeconds, jobSeconds / statementSeconds,
                commits.get()));
    }

    /**
     * A source of {@code rows} rows and a plain table {@code name} holding what {@link #ATTACHED}
     * derives from it, drifted: every thousandth key missing, every 777th differing, 50 keys extra.
     *
     * @return the rows the drift put out of step (100 + 128 + 50 for 100,000 rows)
     */
    private static int driftedTableOver(String name, int rows, String host) throws Exception {
        sql.run("create table " + name + "_src (k integer primary key, v integer not null) using " + host);
        sql.run("insert into " + name + "_src select value, value from generate_series(1, " + rows + ")");
        sql.run("create table " + name + " (k integer primary key, w integer not null) using " + host);
        sql.run("insert into " + name + " select k, v * 3 from " + name + "_src where k % 1000 <> 0");
        sql.run("update " + name + " set w = -1 where k % 777 = 0");
        sql.run("insert into " + name + " select value, 0 from generate_series(" + (rows + 1) + ", " + (rows + 50) + ")");
        return rows / 1000 + rows / 777 + 50;
    }

    private static JsonObject attachParameters(String table, int chunkSize) {
        return Json.createObjectBuilder().add("table", table).add("body", ATTACHED.formatted(table))
                .add("chunkSize", chunkSize).build();
    }

    private static void assertAttached(String table) throws Exception {
        String body = ATTACHED.formatted(table);
        assertThat(sql.rows("select count(*) from (" + body + " except select * from " + table + ")"))
                .as("rows of the body missing from " + table).hasToString("[[0]]");
        assertThat(sql.rows("select count(*) from (select * from " + table + " except " + body + ")"))
                .as("rows of " + table + " not in the body").hasToString("[[0]]");
        assertThat(sql.rows("select count(*) from materialized_views() where name = '" + table + "'")).hasToString("[[1]]");
        assertThat(sql.rows("select count(*) from schema() where name = '" + table + "__attach'")).hasToString("[[0]]");
        assertThat(sql.rows("verify materialized view " + table)).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"derby", "memory"})
    void theAttachJobReconcilesA100kRowTableWithDriftedRowsAndAttachesTheDerivation(String host) throws Exception {
        String table = "attached_on_" + host;
        int drifted = driftedTableOver(table, 100_000, host);

        JsonObject done = Jobs.awaitEnd(server, Jobs.start(server, "mv-attach", attachParameters(table, 10_000)), LONG);

        assertThat(done.getString("batchStatus")).as(done.toString()).isEqualTo("COMPLETED");
        assertThat(done.getString("exitStatus")).isEqualTo("attached: 0 rows changed at finish");
        assertThat(Jobs.step(done, "chunks").getInt("readCount")).isEqualTo(100_000);
        assertThat(Jobs.progress(done).getInt("chunks")).isEqualTo(10);
        assertThat(Jobs.progress(done).getInt("rowsWritten")).as("only the drifted rows are written").isEqualTo(drifted);
        assertAttached(table);
        sql.run("update " + table + "_src set v = 0 where k = 5");
        assertThat(sql.rows("select w from " + table + " where k = 5")).as("maintained from now on").hasToString("[[0]]");
    }

    @Test
    void writersOfTheSourceCommitWhileTheTableIsAttachedAndItEndsEqualToItsBody() throws Exception {
        String table = "attached_under_writers";
        driftedTableOver(table, 100_000, "derby");
        long id = Jobs.start(server, "mv-attach", attachParameters(table, 200));

        BesideWriters run = besideWriters(id,
                k -> sql.run("update " + table + "_src set v = v + 1 where k = " + (k * 37 % 100_000 + 1)));

        assertThat(run.done().getString("batchStatus")).as(run.done().toString()).isEqualTo("COMPLETED");
        assertThat(run.commitsMidRun()).as("writer commits while chunks were still to be reconciled").isGreaterThanOrEqualTo(100);
        assertAttached(table);
    }

    @Test
    void aStoppedAttachRestartsAfterItsLastChunk() throws Exception {
        String table = "attach_stopped";
        driftedTableOver(table, 30_000, "derby");
        long first = Jobs.start(server, "mv-attach", attachParameters(table, 300));
        awaitChunks(first, 2);
        Jobs.stop(server, first);
        JsonObject stopped = Jobs.awaitEnd(server, first, LONG);
        assertThat(stopped.getString("batchStatus")).isEqualTo("STOPPED");
        assertThat(sql.rows("select count(*) from materialized_views() where name = '" + table + "'"))
                .as("a stopped run attached nothing").hasToString("[[0]]");
        int chunksBefore = Jobs.progress(stopped).getInt("chunks");
        int rowsBefore = Jobs.progress(stopped).getInt("position");

        JsonObject restarted = Jobs.awaitEnd(server, Jobs.restart(server, first), LONG);

        assertThat(restarted.getString("batchStatus")).as(restarted.toString()).isEqualTo("COMPLETED");
        assertThat(Jobs.progress(restarted).getInt("firstChunk")).isEqualTo(chunksBefore + 1);
        assertThat(Jobs.step(restarted, "chunks").getInt("readCount")).isEqualTo(30_000 - rowsBefore);
        assertAttached(table);
    }

    @Test
    void aDerivationThatDoesNotFitFailsTheJobAndLeavesTheTablePlain() throws Exception {
        String table = "attach_misfit";
        driftedTableOver(table, 1_000, "derby");
        JsonObject misfit = Json.createObjectBuilder().add("table", table)
                .add("body", "select k, v as x from " + table + "_src").build();

        JsonObject failed = Jobs.awaitEnd(server, Jobs.start(server, "mv-attach", misfit), LONG);

        assertThat(failed.getString("batchStatus")).isEqualTo("FAILED");
        assertThat(failed.getString("exitStatus")).contains("'main.attach_misfit'").contains("alias the body output");
        assertThat(sql.rows("select count(*) from materialized_views() where name = '" + table + "'")).hasToString("[[0]]");
        assertThat(sql.rows("select count(*) from schema() where name = '" + table + "__attach'")).hasToString("[[0]]");
        assertThat(sql.rows("select count(*) from " + table)).as("the table's rows untouched").hasToString("[[1049]]");
    }

    private static void awaitChunks(long id, int chunks) throws Exception {
        long deadline = System.nanoTime() + LONG.toNanos();
        while (Jobs.progress(Jobs.status(server, id)).getInt("chunks", 0) < chunks) {
            assertThat(System.nanoTime()).as("execution %d reaching chunk %d", id, chunks).isLessThan(deadline);
            Thread.sleep(20);
        }
    }
}
