package io.derive.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.derive.it.server.LibertyServer;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import jakarta.json.JsonObject;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A server whose resource adapter leaves rehydrate to the {@code mv-rehydrate} job
 * ({@code rehydrateMode="batch"}): it opens adopting what it can; the views it could not adopt
 * are pending — reads of them and writes to their sources fail with {@code is being rehydrated},
 * readiness reports them — until the job, started with the application, has refilled them, one
 * partition per view, the views of one dependency round side by side.
 */
class RehydrateJobIT {
    private static final LibertyServer server = LibertyServer.fromBuild();
    private static final AdminSql sql = new AdminSql(server);
    private static final String BATCH_REHYDRATE = """
            <server>
              <connectionFactory id="deriveCF" jndiName="eis/derive">
                <properties.derive.derive-rar databaseName="demo" defaultHost="derby" writeLockTimeoutMillis="5000"
                    databaseDirectory="${server.output.dir}/databases/derive" rehydrateMode="batch"/>
              </connectionFactory>
            </server>
            """;
    private static final Map<String, String> BODIES = Map.of(
            "copied", "select k, g, v from facts",
            "totals", "select g, sum(v) as total, count(*) as n from facts group by g",
            "counted", "select g, count(*) as n from copied group by g",
            "kept", "select k, v from facts where v > 6");

    @BeforeAll
    static void startAFreshServer() {
        server.reset();
        server.deploy(TestApplication.ear());
        server.start();
    }

    @AfterAll
    static void stopServer() {
        server.stop();
    }

    @Test
    void viewsTheOpenCouldNotAdoptWaitForTheJobWhichRefillsEachRoundSideBySide() throws Exception {
        sql.run("create table facts (k integer primary key, g integer not null, v integer not null)");
        sql.run("insert into facts select value, value % 100, value % 13 from generate_series(1, 200000)");
        // Memory-hosted views are refilled at every open (round 1); one over a refilled view is refilled after it (round 2).
        sql.run("create materialized view copied using memory as " + BODIES.get("copied"));
        sql.run("create materialized view totals using memory as " + BODIES.get("totals"));
        sql.run("create materialized view counted as " + BODIES.get("counted"));
        sql.run("create materialized view kept as " + BODIES.get("kept"));
        server.stop();
        server.configure("rehydrate-batch", BATCH_REHYDRATE);
        server.start(Map.of("derive.test.rehydrateJobDelaySeconds", "5"));

        assertThat(server.health("/health/ready").body()).contains("\"pendingRehydrates\":3");
        assertThat(sql.rows("select name, round from rehydrate_pending() order by name").toString())
                .isEqualTo("[[\"copied\",1],[\"counted\",2],[\"totals\",1]]");
        assertThat(sql.fails("select count(*) from counted").getString("error"))
                .startsWith("materialized view 'main.counted' is being rehydrated");
        assertThat(sql.fails("update facts set v = v + 1 where k = 1").getString("error")).contains("is being rehydrated");
        assertThat(sql.rows("select count(*) from kept").toString()).as("an adopted view reads at once")
                .isEqualTo("[[92306]]");

        JsonObject execution = Jobs.awaitEnd(server, rehydrateExecution(), Duration.ofMinutes(2));
        assertThat(execution.getString("batchStatus")).as(execution.toString()).isEqualTo("COMPLETED");
        assertThat(execution.getString("exitStatus")).isEqualTo("refilled 3 of 3 materialized views");
        Map<String, JsonObject> refills = execution.getJsonArray("steps").getJsonObject(0).getJsonArray("refills")
                .getValuesAs(JsonObject.class).stream().collect(Collectors.toMap(r -> r.getString("view"), Function.identity()));
        assertThat(refills.keySet()).containsExactlyInAnyOrder("main.copied", "main.totals", "main.counted");
        assertThat(refills.values()).allSatisfy(r -> assertThat(r.getString("outcome")).isEqualTo("refilled"));
        JsonObject copied = refills.get("main.copied");
        JsonObject totals = refills.get("main.totals");
        assertThat(instant(copied, "started")).as("round 1 side by side").isBefore(instant(totals, "ended"));
        assertThat(instant(totals, "started")).as("round 1 side by side").isBefore(instant(copied, "ended"));
        assertThat(instant(refills.get("main.counted"), "ended")).as("round 2 after its source")
                .isAfter(instant(copied, "ended"));

        assertThat(server.health("/health/ready").body()).doesNotContain("pendingRehydrates");
        sql.run("update facts set v = v + 1 where k = 1");
        BODIES.forEach((view, body) -> assertThat(rows("select count(*) from (select * from " + view + " except " + body + ")"
                + " union all select count(*) from (" + body + " except select * from " + view + ")"))
                .as(view + " equals its body").isEqualTo("[[0],[0]]"));
    }

    private static String rows(String query) {
        try {
            return sql.rows(query).toString();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static long rehydrateExecution() throws Exception {
        Instant deadline = Instant.now().plusSeconds(60);
        while (true) {
            HttpResponse<String> recent = server.get("/derive/api/jobs/recent", "Authorization", LibertyServer.ADMIN_AUTHORIZATION);
            for (JsonObject e : AdminSql.json(recent.body()).getJsonArray("executions").getValuesAs(JsonObject.class)) {
                if (e.getString("jobName").equals("mv-rehydrate")) {
                    return e.getJsonNumber("executionId").longValue();
                }
            }
            assertThat(Instant.now()).as("mv-rehydrate started with the application").isBefore(deadline);
            Thread.sleep(250);
        }
    }

    private static Instant instant(JsonObject refill, String name) {
        return Instant.parse(refill.getString(name));
    }
}
