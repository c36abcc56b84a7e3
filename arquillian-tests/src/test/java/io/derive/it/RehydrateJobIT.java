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
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * A server whose resource adapter leaves rehydrate to the {@code mv-rehydrate} job
 * ({@code rehydrateMode="batch"}): it opens adopting what it can; the views it could not adopt
 * are pending — reads of them and writes to their sources fail with {@code is being rehydrated},
 * readiness reports them — until the job, started with the application, has refilled them, one
 * partition per view, the views of one dependency round side by side; a kill during the job
 * leaves what it had not refilled to the job the next start begins.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
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
        server.startAfresh(TestApplication.ear());
    }

    @AfterAll
    static void stopServer() {
        server.stop();
    }

    @Test
    @Order(1)
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
        assertEveryViewEqualsItsBody();
    }

    @Test
    @Order(2)
    void aServerKilledDuringTheJobRefillsWhatWasLeftPendingWithTheJobItsNextStartBegins() throws Exception {
        long before = rehydrateExecution();
        server.stop();
        server.configure("rehydrate-batch", BATCH_REHYDRATE);
        server.start();
        long killed = awaitNewRehydrateExecution(before);
        server.kill();
        server.start();
        long after = awaitNewRehydrateExecution(killed);

        JsonObject execution = Jobs.awaitEnd(server, after, Duration.ofMinutes(2));
        assertThat(execution.getString("batchStatus")).as(execution.toString()).isEqualTo("COMPLETED");
        assertThat(Jobs.awaitEnd(server, killed, Duration.ofMinutes(1)).getString("batchStatus"))
                .as("the killed execution, as the server found it at its start").isEqualTo("FAILED");
        assertThat(rows("select count(*) from rehydrate_pending()")).isEqualTo("[[0]]");
        assertEveryViewEqualsItsBody();
    }

    private static void assertEveryViewEqualsItsBody() {
        BODIES.forEach((view, body) -> assertThat(rows("select count(*) from (select * from " + view + " except " + body + ")"
                + " union all select count(*) from (" + body + " except select * from " + view + ")"))
                .as(view + " equals its body").isEqualTo("[[0],[0]]"));
    }

    /** The newest mv-rehydrate execution after {@code previous}, once the application has started it. */
    private static long awaitNewRehydrateExecution(long previous) throws Exception {
        Instant deadline = Instant.now().plusSeconds(60);
        long newest;
        while ((newest = newestRehydrateExecution()) <= previous) {
            assertThat(Instant.now()).as("a new mv-rehydrate execution after " + previous).isBefore(deadline);
            Thread.sleep(100);
        }
        return newest;
    }

    private static String rows(String query) {
        try {
            return sql.rows(query).toString();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The newest execution of mv-rehydrate, once there is one. */
    private static long rehydrateExecution() throws Exception {
        return awaitNewRehydrateExecution(0);
    }

    private static long newestRehydrateExecution() throws IOException {
        HttpResponse<String> recent = server.get("/derive/api/jobs/recent", "Authorization", LibertyServer.ADMIN_AUTHORIZATION);
        return AdminSql.json(recent.body()).getJsonArray("executions").getValuesAs(JsonObject.class).stream()
                .filter(e -> e.getString("jobName").equals("mv-rehydrate"))
                .mapToLong(e -> e.getJsonNumber("executionId").longValue()).max().orElse(0);
    }

    private static Instant instant(JsonObject refill, String name) {
        return Instant.parse(refill.getString(name));
    }
}
