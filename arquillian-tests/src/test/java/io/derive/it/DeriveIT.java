package io.derive.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;

import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.EnterpriseArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The real EAR plus a small test module ({@code /derive-test}) on one managed Liberty, driven from
 * this JVM over HTTP. Each test works on tables of its own, so the order does not matter.
 */
@ExtendWith(ArquillianExtension.class)
class DeriveIT {

    private static final String BASE = "http://localhost:" + System.getProperty("derive.http.port", "9180");
    private static final String ADMIN = "Basic " + Base64.getEncoder().encodeToString("admin:derive".getBytes(StandardCharsets.UTF_8));
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    /** The EAR as built, with the test web module added to it and to its application.xml. */
    @Deployment(testable = false)
    static EnterpriseArchive deployment() {
        return TestApplication.ear();
    }

    // (a) a CMT commit makes the source row and its view row visible to a new transaction
    @Test
    void containerManagedCommitMaintainsTheView() throws Exception {
        scenario("setup", "cmt_commit");
        Map<String, String> out = scenario("insert", "cmt_commit", "k", "7");

        assertThat(out).containsEntry("outcome", "ok").containsEntry("derive", "[7]").containsEntry("deriveView", "[7]");
    }

    // (b) a runtime exception or setRollbackOnly leaves neither the source row nor the view row
    @Test
    void containerManagedRollbackLeavesNoTrace() throws Exception {
        scenario("setup", "cmt_rollback");
        Map<String, String> thrown = scenario("insertThenThrow", "cmt_rollback", "k", "1");
        Map<String, String> marked = scenario("insertThenSetRollbackOnly", "cmt_rollback", "k", "2");

        assertThat(thrown.get("outcome")).contains("the business method failed after writing");
        assertThat(thrown).containsEntry("derive", "[]").containsEntry("deriveView", "[]");
        assertThat(marked).containsEntry("outcome", "ok").containsEntry("derive", "[]").containsEntry("deriveView", "[]");
    }

    // (c) with a second XA resource the transaction is two-phase: prepare before commit(onePhase=false)
    @Test
    void twoResourcesCommitInTwoPhasesAndRollBackTogether() throws Exception {
        scenario("setup", "xa_two");
        Map<String, String> committed = scenario("twoResources", "xa_two", "k", "1");
        List<String[]> calls = xaCalls(committed);
        String xid = calls.stream().filter(c -> c[0].equals("start")).findFirst().orElseThrow()[1];
        List<String> branch = calls.stream().filter(c -> c[1].equals(xid)).map(c -> c[0] + "(" + c[2] + ")=" + c[3]).toList();

        assertThat(committed).containsEntry("outcome", "ok").containsEntry("derive", "[1]")
                .containsEntry("deriveView", "[1]").containsEntry("second", "[1]");
        assertThat(branch).containsExactly("start(TMNOFLAGS)=ok", "end(TMSUCCESS)=ok", "prepare()=XA_OK",
                "commit(onePhase=false)=ok");

        Map<String, String> rolledBack = scenario("twoResources", "xa_two", "k", "2", "rollback", "true");
        assertThat(rolledBack).containsEntry("derive", "[1]").containsEntry("deriveView", "[1]").containsEntry("second", "[1]");
        assertThat(xaCalls(rolledBack)).extracting(c -> c[0]).contains("rollback").doesNotContain("prepare", "commit");
    }

    // (c2) an unshareable reference enlists a second branch of the same global transaction (same
    // global id, its own qualifier): it shares the first one's engine transaction, so both commit or
    // roll back together
    @Test
    void anUnshareableConnectionIsABranchOfTheSameTransactionAndCommitsOrRollsBackWithIt() throws Exception {
        scenario("setup", "unshared_commit");
        scenario("setup", "unshared_rollback");
        Map<String, String> committed = scenario("unshareable", "unshared_commit");
        List<String> started = xaCalls(committed).stream().filter(c -> c[0].equals("start")).map(c -> c[1] + " " + c[2]).toList();

        assertThat(committed).containsEntry("outcome", "ok").containsEntry("derive", "[1, 2]").containsEntry("deriveView", "[1, 2]");
        assertThat(started).hasSize(2).allSatisfy(s -> assertThat(s).endsWith(" TMNOFLAGS"));
        assertThat(started.stream().map(s -> s.substring(0, s.lastIndexOf(':'))).distinct()).as("global ids").hasSize(1);
        assertThat(started.stream().distinct()).as("branches").hasSize(2);

        Map<String, String> rolledBack = scenario("unshareable", "unshared_rollback", "rollback", "true");
        assertThat(rolledBack).containsEntry("outcome", "ok").containsEntry("derive", "[]").containsEntry("deriveView", "[]");
    }

    // (c3) a transaction that outlives its timeout (2 s) while its thread sleeps (4 s) releases the
    // write lock at the deadline: another transaction writes (its lock wait is 5 s in the server);
    // the timed-out one's later statement and its commit fail, and its row is gone
    @Test
    void aTimedOutTransactionReleasesItsLocksAtTheDeadlineAndItsLaterStatementFails() throws Exception {
        scenario("setup", "tx_timeout");
        Map<String, String> out = scenario("sleepPastTheTimeout", "tx_timeout");

        assertThat(out).containsEntry("outcome", "ok").containsEntry("otherTransaction", "ok")
                .containsEntry("derive", "[1]").containsEntry("deriveView", "[1]");
        assertThat(out.get("laterStatement")).startsWith("failed").contains("timeout");
        assertThat(out.get("commit")).startsWith("failed");
    }

    // (d) mv-refresh recomputes the backing from the body; an unknown view fails with the engine's message
    @Test
    void refreshJobRecomputesTheViewAndReportsEngineErrors() throws Exception {
        // The server's Derive database is durable: a previous run's objects may still be there.
        sql("drop materialized view if exists job_mv");
        sql("drop table if exists job_src");
        sql("create table job_src (k integer primary key, v text, n integer not null)");
        sql("insert into job_src values (1, 'a', 1)");
        sql("insert into job_src values (2, 'b', 0)");
        sql("insert into job_src values (3, 'c', 5)");
        sql("create materialized view job_mv as select k, v from job_src where n > 0");
        long evaluationsBefore = bodyEvaluations("job_mv");

        JsonObject done = runJob("job_mv");

        assertThat(done.getString("batchStatus")).isEqualTo("COMPLETED");
        assertThat(bodyEvaluations("job_mv"))
                .as("once for the chunks; the finish of a per-row view derives only the keys written during the run")
                .isEqualTo(evaluationsBefore + 1);
        assertThat(sql("select * from job_mv order by k").getJsonArray("rows"))
                .isEqualTo(sql("select k, v from job_src where n > 0 order by k").getJsonArray("rows"))
                .hasSize(2);

        JsonObject failed = runJob("no_such_view_here");
        assertThat(failed.getString("batchStatus")).isEqualTo("FAILED");
        assertThat(failed.getString("exitStatus")).contains("no such materialized view");
    }

    // (e) mv-verify compares a view with its body and says what it found in its exit status and in verify_report()
    @Test
    void verifyJobFindsNoDriftInAMaintainedViewAndReportsIt() throws Exception {
        sql("drop materialized view if exists verify_mv");
        sql("drop table if exists verify_src");
        sql("create table verify_src (k integer primary key, g integer not null)");
        sql("insert into verify_src values (1, 1), (2, 1), (3, 2)");
        sql("create materialized view verify_mv as select g, count(*) as n from verify_src group by g");
        sql("update verify_src set g = 2 where k = 1");

        JsonObject verified = runJob("mv-verify", Json.createObjectBuilder().add("view", "verify_mv").build());
        JsonObject repaired = runJob("mv-verify", Json.createObjectBuilder().add("view", "verify_mv").add("repair", true).build());

        assertThat(verified.getString("batchStatus")).isEqualTo("COMPLETED");
        assertThat(verified.getString("exitStatus")).isEqualTo("no drift");
        assertThat(repaired.getString("exitStatus")).isEqualTo("no drift");
        assertThat(sql("select missing, extra, differs, repaired from verify_report() where name = 'verify_mv'")
                .getJsonArray("rows").toString()).isEqualTo("[[0,0,0,false]]");
        assertThat(runJob("mv-verify", Json.createObjectBuilder().add("view", "verify_src").build()).getString("exitStatus"))
                .contains("'verify_src' is a table, not a materialized view");
        assertThat(call(post("/derive/api/jobs/mv-verify", "{\"view\":\"verify_mv\",\"repair\":\"yes\"}"), 400)
                .getString("error")).contains("\"repair\" must be true or false");
    }

    @Test
    void theInDoubtEndpointRefusesABadXidOrOutcomeAndNamesAnUnknownBranch() throws Exception {
        assertThat(call(HttpRequest.newBuilder(URI.create(BASE + "/derive/api/in-doubt")).GET(), 200)
                .getJsonArray("branches")).as("a server that never halted leaves none").isEmpty();
        assertThat(call(post("/derive/api/in-doubt/not-an-xid", "{\"outcome\":\"commit\"}"), 400).getString("error"))
                .contains("'not-an-xid' is not a transaction branch of the form formatId:gtrid-hex:bqual-hex");
        assertThat(call(post("/derive/api/in-doubt/1:ab:01", "{\"outcome\":\"maybe\"}"), 400).getString("error"))
                .contains("\"outcome\" must be \"commit\" or \"rollback\"");
        assertThat(call(post("/derive/api/in-doubt/1:ab:01", "{\"outcome\":\"commit\"}"), 404).getString("error"))
                .contains("1:ab:01");
        assertThat(call(HttpRequest.newBuilder(URI.create(BASE + "/derive/api/in-doubt/1:ab:01")).DELETE(), 404)
                .getString("code")).isEqualTo("42704");
    }

    // (e) the admin API refuses every request without credentials
    @Test
    void everyAdminEndpointNeedsCredentials() throws Exception {
        List<HttpRequest> requests = List.of(
                post("/derive/api/sql", "{\"sql\":\"select 1\"}").build(),
                post("/derive/api/jobs/mv-refresh", "{\"view\":\"v\"}").build(),
                HttpRequest.newBuilder(URI.create(BASE + "/derive/api/jobs/1")).GET().build(),
                HttpRequest.newBuilder(URI.create(BASE + "/derive/api/in-doubt")).GET().build(),
                post("/derive/api/in-doubt/1:ab:01", "{\"outcome\":\"commit\"}").build(),
                HttpRequest.newBuilder(URI.create(BASE + "/derive/api/in-doubt/1:ab:01")).DELETE().build());
        for (HttpRequest request : requests) {
            assertThat(HTTP.send(request, HttpResponse.BodyHandlers.ofString()).statusCode())
                    .as(request.method() + " " + request.uri()).isEqualTo(401);
        }
        HttpResponse<String> wrongPassword = HTTP.send(post("/derive/api/sql", "{\"sql\":\"select 1\"}")
                .header("Authorization", "Basic " + Base64.getEncoder().encodeToString("admin:nope".getBytes(StandardCharsets.UTF_8)))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(wrongPassword.statusCode()).isEqualTo(401);
    }

    // (f) connections of one JTA transaction share one engine transaction; outside one, autocommit
    @Test
    void connectionsShareTheJtaTransactionAndAutocommitOutsideIt() throws Exception {
        // A second JTA transaction reads while the first is suspended with writes: on either host
        // that read neither waits for the first nor sees its rows, and sees the committed ones.
        for (String host : List.of("memory", "derby")) {
            String t = "shared_tx_" + host;
            scenario("setup", t, "host", host);
            scenario("insert", t, "k", "0");
            Map<String, String> shared = scenario("shared", t);

            assertThat(shared).as(host).containsEntry("outcome", "ok").containsEntry("secondSaw", "1")
                    .containsEntry("thirdSaw", "[0, 1, 2]").containsEntry("otherTransactionSaw", "[0]")
                    .containsEntry("derive", "[0, 1, 2]");
            // The write-lock timeout is 5 s: a second engine transaction would have waited that long and failed.
            assertThat(Long.parseLong(shared.get("secondWriteMillis"))).as(host).isLessThan(2_000);
        }

        scenario("setup", "auto_tx");
        Map<String, String> auto = scenario("autocommit", "auto_tx");
        assertThat(auto).containsEntry("outcome", "ok").containsEntry("otherTransactionSaw", "[1]")
                .containsEntry("duplicate", "refused").containsEntry("derive", "[1, 2]").containsEntry("deriveView", "[1, 2]");
    }

    // --- helpers ---

    private static Map<String, String> scenario(String op, String table, String... extra) throws Exception {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(BASE + Scenarios.path(op, table, extra)))
                .timeout(Duration.ofSeconds(60)).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        Map<String, String> lines = Scenarios.answer(response.body());
        if (op.equals("setup")) {
            assertThat(lines).as(response.body()).containsEntry("outcome", "ok");
        }
        return lines;
    }

    /** The journalled XA calls as [operation, xid, detail, outcome]. */
    private static List<String[]> xaCalls(Map<String, String> out) {
        List<String[]> calls = new ArrayList<>();
        for (String line : out.getOrDefault("xa", "").split("\n")) {
            if (!line.isEmpty()) {
                calls.add(line.split("\\|", 4));
            }
        }
        return calls;
    }

    private static HttpRequest.Builder post(String path, String json) {
        return HttpRequest.newBuilder(URI.create(BASE + path)).timeout(Duration.ofSeconds(60))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json));
    }

    private static JsonObject call(HttpRequest.Builder request, int expectedStatus) throws Exception {
        HttpResponse<String> response = HTTP.send(request.header("Authorization", ADMIN).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(expectedStatus);
        try (JsonReader reader = Json.createReader(new StringReader(response.body()))) {
            return reader.readObject();
        }
    }

    private static JsonObject sql(String sql) throws Exception {
        String body = Json.createObjectBuilder().add("sql", sql).build().toString();
        return call(post("/derive/api/sql", body), 200);
    }

    private static long bodyEvaluations(String view) throws Exception {
        JsonObject result = sql("select name, body_evaluations from materialized_views()");
        for (JsonValue row : result.getJsonArray("rows")) {
            JsonArray r = row.asJsonArray();
            if (r.getString(0).equalsIgnoreCase(view)) {
                return r.getJsonNumber(1).longValue();
            }
        }
        throw new AssertionError("no materialized view " + view + " in " + result);
    }

    /** Starts mv-refresh and waits for it to end; returns the final status. */
    private static JsonObject runJob(String view) throws Exception {
        return runJob("mv-refresh", Json.createObjectBuilder().add("view", view).build());
    }

    /** Starts {@code job} with these parameters and waits for it to end; returns the final status. */
    private static JsonObject runJob(String job, JsonObject parameters) throws Exception {
        long id = call(post("/derive/api/jobs/" + job, parameters.toString()), 200).getJsonNumber("executionId").longValue();
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (true) {
            JsonObject status = call(HttpRequest.newBuilder(URI.create(BASE + "/derive/api/jobs/" + id)).GET(), 200);
            String batchStatus = status.getString("batchStatus");
            if (List.of("COMPLETED", "FAILED", "STOPPED", "ABANDONED").contains(batchStatus)) {
                return status;
            }
            assertThat(System.nanoTime()).as("job " + id + " still " + batchStatus).isLessThan(deadline);
            Thread.sleep(200);
        }
    }
}
