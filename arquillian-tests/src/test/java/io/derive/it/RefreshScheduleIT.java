package io.derive.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.derive.it.server.LibertyServer;

import java.io.IOException;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Predicate;

import jakarta.json.Json;
import jakarta.json.JsonObject;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A materialized view's refresh schedule on a server that is stopped and started again: the
 * scheduler starts {@code mv-refresh} at the times it names, never beside a running refresh
 * (a time that comes during one started by hand is skipped and logged), picks the
 * schedule up again from the catalog after a restart, refreshes once for the times it missed
 * while down, and stops with {@code drop refresh schedule}; a rolled-back {@code set refresh
 * schedule} leaves no schedule.
 */
class RefreshScheduleIT {
    private static final LibertyServer server = LibertyServer.fromBuild();
    private static final AdminSql sql = new AdminSql(server);
    private static final String EVERY_TWO_SECONDS = "*/2 * * * * *";
    private static final Duration PATIENCE = Duration.ofSeconds(60);

    @BeforeAll
    static void startAFreshServer() {
        server.startAfresh(TestApplication.ear());
    }

    @AfterAll
    static void stopServer() {
        server.stop();
    }

    @Test
    void aScheduleFiresWithoutOverlapSurvivesARestartCatchesUpOnceAndEndsWhenDropped() throws Exception {
        sql.run("create table planned (k integer primary key, v integer not null)");
        sql.run("insert into planned select value, value % 7 from generate_series(1, 50000)");
        sql.run("create materialized view planned_mv as select k, v from planned");

        HttpResponse<String> rolledBack = server.get(Scenarios.path("scheduleThenSetRollbackOnly", "planned_mv",
                "schedule", URLEncoder.encode(EVERY_TWO_SECONDS, StandardCharsets.UTF_8)));
        assertThat(Scenarios.answer(rolledBack.body())).containsEntry("outcome", "ok");
        assertThat(schedules().getJsonArray("schedules")).isEmpty();

        HttpResponse<String> set = server.putJson("/derive/api/schedules/planned_mv",
                Json.createObjectBuilder().add("schedule", EVERY_TWO_SECONDS).build().toString(),
                "Authorization", LibertyServer.ADMIN_AUTHORIZATION);
        assertThat(set.statusCode()).as(set.body()).isEqualTo(200);
        assertThat(AdminSql.json(set.body()).getString("schedule")).isEqualTo(EVERY_TWO_SECONDS);

        List<JsonObject> fired = awaitExecutions(e -> "schedule".equals(trigger(e)) && "COMPLETED".equals(status(e)), 3);
        assertNoOverlap(executions());
        assertThat(fired).allSatisfy(e -> assertThat(e.getString("exitStatus")).startsWith("refreshed: "));

        long byHand = refreshStartedByHand();
        awaitLog("scheduled refresh of materialized view planned_mv skipped: execution " + byHand + " of mv-refresh is still running");
        awaitNoneRunning();
        assertNoOverlap(executions());

        server.stop();
        Instant stopped = Instant.now();
        Thread.sleep(3_000);
        server.start();
        JsonObject kept = schedules().getJsonArray("schedules").getJsonObject(0);
        assertThat(kept.getString("schedule")).isEqualTo(EVERY_TWO_SECONDS);
        assertThat(kept.getJsonObject("lastRun").getString("jobName")).as("the last run, from the job repository")
                .isEqualTo("mv-refresh");

        awaitExecutions(e -> "schedule".equals(trigger(e)) && created(e).isAfter(stopped) && "COMPLETED".equals(status(e)), 2);
        assertThat(executions().stream().filter(e -> "catch-up".equals(trigger(e))).toList())
                .as("one catch-up run for the times missed while the server was down").singleElement()
                .satisfies(e -> assertThat(created(e)).isAfter(stopped));
        assertNoOverlap(executions());

        HttpResponse<String> dropped = server.delete("/derive/api/schedules/planned_mv", "Authorization", LibertyServer.ADMIN_AUTHORIZATION);
        assertThat(dropped.statusCode()).as(dropped.body()).isEqualTo(200);
        Instant dropTime = Instant.now();
        assertThat(schedules().getJsonArray("schedules")).isEmpty();
        awaitNoneRunning();
        Thread.sleep(5_000);
        assertThat(executions()).as("no run starts a second after the schedule was dropped")
                .noneMatch(e -> created(e).isAfter(dropTime.plusSeconds(1)));
        assertThat(sql.rows("select count(*) from (select k, v from planned_mv except select k, v from planned)").toString())
                .isEqualTo("[[0]]");
    }

    @Test
    void aMalformedScheduleIsRefusedWithTheEnginesMessage() throws IOException {
        sql.run("create table unplanned (k integer primary key)");
        sql.run("create materialized view unplanned_mv as select k from unplanned");
        HttpResponse<String> refused = server.putJson("/derive/api/schedules/unplanned_mv",
                Json.createObjectBuilder().add("schedule", "0 25 * * *").build().toString(),
                "Authorization", LibertyServer.ADMIN_AUTHORIZATION);
        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(AdminSql.json(refused.body()).getString("error"))
                .startsWith("materialized view 'main.unplanned_mv': invalid refresh schedule '0 25 * * *': hour field: 25 is not in 0-23");
    }

    private static JsonObject schedules() throws IOException {
        HttpResponse<String> response = server.get("/derive/api/schedules", "Authorization", LibertyServer.ADMIN_AUTHORIZATION);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return AdminSql.json(response.body());
    }

    /** The executions of planned_mv's jobs, oldest first. */
    private static List<JsonObject> executions() throws IOException {
        HttpResponse<String> response = server.get("/derive/api/jobs?view=planned_mv", "Authorization", LibertyServer.ADMIN_AUTHORIZATION);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        List<JsonObject> executions = new ArrayList<>(AdminSql.json(response.body()).getJsonArray("executions")
                .getValuesAs(JsonObject.class));
        executions.sort(Comparator.comparingLong(e -> e.getJsonNumber("executionId").longValue()));
        return executions;
    }

    private static List<JsonObject> awaitExecutions(Predicate<JsonObject> wanted, int count) throws Exception {
        Instant deadline = Instant.now().plus(PATIENCE);
        while (true) {
            List<JsonObject> matching = executions().stream().filter(wanted).toList();
            if (matching.size() >= count) {
                return matching;
            }
            assertThat(Instant.now()).as("%d executions wanted, these ran: %s", count, executions()).isBefore(deadline);
            Thread.sleep(250);
        }
    }

    /**
     * A slow refresh (50-row chunks) started through the admin API, once it holds the view's
     * lease: one started while a scheduled run holds it fails at its start step, and is started
     * again once no refresh runs.
     */
    private static long refreshStartedByHand() throws Exception {
        Instant deadline = Instant.now().plus(PATIENCE);
        while (true) {
            long id = Jobs.start(server, "mv-refresh", Json.createObjectBuilder().add("view", "planned_mv").add("chunkSize", 50).build());
            JsonObject status = Jobs.status(server, id);
            while (status.getJsonArray("steps").stream().noneMatch(step -> ((JsonObject) step).getString("name").equals("chunks"))
                    && List.of("STARTING", "STARTED").contains(status(status))) {
                Thread.sleep(50);
                status = Jobs.status(server, id);
            }
            if (!status(status).equals("FAILED")) {
                return id;
            }
            assertThat(status.getString("exitStatus")).as("a start refused by a scheduled run's lease").contains("is being refreshed");
            assertThat(Instant.now()).isBefore(deadline);
            awaitNoneRunning();
        }
    }

    private static void awaitLog(String line) throws Exception {
        Instant deadline = Instant.now().plus(PATIENCE);
        while (!server.log().contains(line)) {
            assertThat(Instant.now()).as("the server logs: %s", line).isBefore(deadline);
            Thread.sleep(250);
        }
    }

    private static void awaitNoneRunning() throws Exception {
        awaitExecutions(e -> true, 1);
        Instant deadline = Instant.now().plus(PATIENCE);
        while (executions().stream().anyMatch(e -> List.of("STARTING", "STARTED", "STOPPING").contains(status(e)))) {
            assertThat(Instant.now()).as("a refresh still runs: %s", executions()).isBefore(deadline);
            Thread.sleep(250);
        }
    }

    /** Each completed refresh of the view ended before the next one started. */
    private static void assertNoOverlap(List<JsonObject> executions) {
        List<JsonObject> ended = executions.stream().filter(e -> "COMPLETED".equals(status(e))).toList();
        for (int i = 1; i < ended.size(); i++) {
            assertThat(Instant.parse(ended.get(i).getString("started")))
                    .as("execution %s started after %s ended", ended.get(i), ended.get(i - 1))
                    .isAfterOrEqualTo(Instant.parse(ended.get(i - 1).getString("ended")));
        }
    }

    private static String trigger(JsonObject execution) {
        return execution.isNull("trigger") ? null : execution.getString("trigger");
    }

    private static String status(JsonObject execution) {
        return execution.getString("batchStatus");
    }

    private static Instant created(JsonObject execution) {
        return execution.isNull("started") ? Instant.now() : Instant.parse(execution.getString("started"));
    }
}
