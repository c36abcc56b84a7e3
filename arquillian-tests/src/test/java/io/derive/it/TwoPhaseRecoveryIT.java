package io.derive.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.derive.it.server.LibertyServer;
import io.derive.it.server.Readiness;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Two-phase commit of a Derive write (a Derby-hosted source with a projection and a group-by
 * view) and a row of the Derby XA data source jdbc/second, in one container-managed transaction,
 * with the server JVM halted inside it by the test-only hook {@code derive.rar.testHaltAt}; the
 * server is then started again without the hook, and Liberty's own recovery decides the branch
 * through the adapter. Both resources end the same way, and every view equals its body. With the
 * transaction log moved aside before the start, Liberty cannot decide it: what Derive's branch
 * wrote waits, the rest answers, until an operator decides the branch through the admin API; a
 * transaction manager that gets its log back is told the operator's outcome as a heuristic one.
 */
class TwoPhaseRecoveryIT {
    private static final String HALT_AT = "derive.rar.testHaltAt";
    /** The exit status of a JVM the hook halted. */
    private static final int HALTED = 87;
    /** DeriveException.IN_DOUBT: what a statement needs waits for an in-doubt transaction. */
    private static final String IN_DOUBT = "25I01";
    /** DeriveException.HEURISTICALLY_ROLLED_BACK: an operator rolled the branch back. */
    private static final String HEURISTICALLY_ROLLED_BACK = "25I03";

    private static final LibertyServer server = LibertyServer.fromBuild();
    private static final AdminSql sql = new AdminSql(server);

    @BeforeAll
    static void deployOnAFreshServer() {
        server.reset();
        server.deploy(TestApplication.ear());
        server.configure("second-on-disk", DropIns.SECOND_ON_DISK);
    }

    @AfterAll
    static void stopServer() {
        server.stop();
    }

    @Test
    void aHaltBeforeDerivesCommitIsCommittedByRecoveryInBothResources() throws Exception {
        String t = "halt_before_commit";
        arrangeAndHaltAt(t, "beforeCommit");

        Readiness recovered = server.start();

        assertThat(read(t)).containsEntry("derive", "[1, 2, 3, 10]").containsEntry("deriveView", "[2, 3, 10]")
                .containsEntry("second", "[10]");
        assertViewsEqualTheirBodies(t);
        assertThat(server.log()).as(recovered.toString()).containsPattern("in-doubt transaction .* committed");
    }

    @Test
    void aHaltAfterDerivesPrepareIsRolledBackByRecoveryInBothResources() throws Exception {
        String t = "halt_after_prepare";
        arrangeAndHaltAt(t, "afterPrepare");

        Readiness recovered = server.start();

        assertThat(read(t)).containsEntry("derive", "[1, 2, 3]").containsEntry("deriveView", "[2, 3]")
                .containsEntry("second", "[]");
        assertViewsEqualTheirBodies(t);
        assertThat(server.log()).as(recovered.toString()).containsPattern("in-doubt transaction .* rolled back");
    }

    @Test
    void withTheTransactionLogLostWhatTheBranchWroteWaitsUntilAnOperatorDecidesIt() throws Exception {
        String t = "log_lost";
        String xid = haltAfterTheDecisionAndLoseTheLog(t);

        assertThat(sql.rows("select k from " + t + "_untouched")).as("a table the branch did not write answers").hasSize(1);
        for (String touched : List.of(t, t + "_mv", t + "_by_n")) {
            JsonObject error = sql.fails("select * from " + touched);
            assertThat(error.getString("code")).as(touched).isEqualTo(IN_DOUBT);
            assertThat(error.getString("error")).contains("main." + touched, "waits for the outcome of in-doubt transaction " + xid);
        }
        assertThat(inDoubt()).singleElement().satisfies(branch -> {
            assertThat(branch.getString("state")).isEqualTo("in doubt");
            assertThat(branch.getJsonArray("touched").getValuesAs(JsonString::getString))
                    .contains("table main." + t, "materialized view main." + t + "_mv", "materialized view main." + t + "_by_n");
        });

        JsonObject decided = resolve(xid, "rollback");

        assertThat(decided.getString("state")).isEqualTo("heuristically rolled back");
        assertThat(decided.isNull("decidedAt")).isFalse();
        assertThat(decide(xid, "commit", 409).getString("code")).as("decided already: the outcome it had")
                .isEqualTo(HEURISTICALLY_ROLLED_BACK);
        server.waitReady();
        assertThat(sql.rows("select k from " + t + " order by k").toString()).isEqualTo("[[1],[2],[3]]");
        assertViewsEqualTheirBodies(t);
        HttpResponse<String> forgotten = server.delete("/derive/api/in-doubt/" + xid, "Authorization", LibertyServer.ADMIN_AUTHORIZATION);
        assertThat(forgotten.statusCode()).as("no transaction manager will ask: the operator forgets it; %s", forgotten.body())
                .isEqualTo(204);
        assertThat(inDoubt()).isEmpty();
    }

    @Test
    void aTransactionManagerThatGetsItsLogBackIsToldTheOperatorsOutcomeAsAHeuristicOne() throws Exception {
        String t = "log_back";
        String xid = haltAfterTheDecisionAndLoseTheLog(t);
        resolve(xid, "rollback");
        server.stop();

        server.restoreTransactionLog();
        server.start();

        awaitForgotten(xid);
        assertThat(server.log()).containsPattern("WTRN0075W: .* heuristic exception when committing");
        assertThat(read(t)).as("Liberty committed jdbc/second; the operator had rolled Derive back")
                .containsEntry("derive", "[1, 2, 3]").containsEntry("deriveView", "[2, 3]").containsEntry("second", "[10]");
        assertViewsEqualTheirBodies(t);
    }

    /**
     * Halts after the transaction manager decided to commit row 10 of t and before Derive's
     * commit, moves the transaction log aside and starts the server, which waits for the branch;
     * answers the branch's xid.
     */
    private static String haltAfterTheDecisionAndLoseTheLog(String t) throws IOException {
        arrangeAndHaltAt(t, "beforeCommit");

        server.moveTransactionLogAside();
        server.launch(Map.of());
        server.awaitReadiness(answer -> answer.body().contains("WAITING_FOR_IN_DOUBT"), "waiting for the in-doubt branch");
        List<JsonObject> waiting = inDoubt().stream().filter(b -> b.getString("state").equals("in doubt")).toList();
        assertThat(waiting).hasSize(1);
        return waiting.get(0).getString("xid");
    }

    private static List<JsonObject> inDoubt() throws IOException {
        HttpResponse<String> response = server.get("/derive/api/in-doubt", "Authorization", LibertyServer.ADMIN_AUTHORIZATION);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return AdminSql.json(response.body()).getJsonArray("branches").getValuesAs(JsonObject.class);
    }

    private static JsonObject resolve(String xid, String outcome) throws IOException {
        return decide(xid, outcome, 200);
    }

    /** {@code POST /api/in-doubt/{xid}}, which must answer {@code status}; its JSON answer. */
    private static JsonObject decide(String xid, String outcome, int status) throws IOException {
        HttpResponse<String> response = server.postJson("/derive/api/in-doubt/" + xid,
                Json.createObjectBuilder().add("outcome", outcome).build().toString(),
                "Authorization", LibertyServer.ADMIN_AUTHORIZATION);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        return AdminSql.json(response.body());
    }

    /** Liberty's recovery may still be running once the server is ready: waits until it forgot the branch. */
    private static void awaitForgotten(String xid) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (inDoubt().stream().anyMatch(b -> b.getString("xid").equals(xid))) {
            assertThat(System.nanoTime()).as("%s is still listed: %s", xid, server.logTail(40)).isLessThan(deadline);
            Thread.sleep(200);
        }
    }

    /**
     * Restarts the server with the hook at {@code point}, arranges t and halts it in the two-phase
     * commit of row 10. Whatever ran before is decided and committed: a kill ends it as well as a
     * stop, sooner.
     */
    private static void arrangeAndHaltAt(String t, String point) throws IOException {
        if (server.isRunning()) {
            server.kill();
        }
        server.start(Map.of(HALT_AT, point));
        arrange(t);
        haltInTwoPhaseCommitOfRow(t, 10);
    }

    /**
     * Table t with rows 1..3, its projection t_mv (n > 0) and a group-by view t_by_n; a table
     * t_untouched with one row, which the halted transaction does not write; an empty table t in
     * jdbc/second.
     */
    private static void arrange(String t) throws IOException {
        assertThat(scenario("setup", t)).containsEntry("outcome", "ok");
        sql.run("insert into " + t + " values (1, 'a', 0), (2, 'b', 1), (3, 'c', 2)");
        sql.run("create materialized view " + t + "_by_n as select n, count(*) as c, sum(k) as s from " + t + " group by n");
        sql.run("create table " + t + "_untouched (k integer primary key)");
        sql.run("insert into " + t + "_untouched values (1)");
    }

    /** Writes row k to both resources in one transaction; the hook halts the JVM in its two-phase commit. */
    private static void haltInTwoPhaseCommitOfRow(String t, int k) {
        assertThatThrownBy(() -> scenario("twoResources", t, "k", Integer.toString(k)))
                .as("the server answers nothing: it halted").isInstanceOf(IOException.class);
        assertThat(server.awaitExit(Duration.ofSeconds(60))).as(server.logTail(40)).isEqualTo(HALTED);
    }

    private static Map<String, String> read(String t) throws IOException {
        Map<String, String> read = scenario("read", t);
        assertThat(read).containsEntry("outcome", "ok");
        return read;
    }

    private static void assertViewsEqualTheirBodies(String t) throws IOException {
        assertViewEqualsBody("select k, v from " + t + "_mv", "select k, v from " + t + " where n > 0");
        assertViewEqualsBody("select n, c, s from " + t + "_by_n", "select n, count(*), sum(k) from " + t + " group by n");
    }

    private static void assertViewEqualsBody(String view, String body) throws IOException {
        assertThat(sql.rows(view + " except " + body)).as("rows of %s not in its body", view).isEmpty();
        assertThat(sql.rows(body + " except " + view)).as("rows of the body missing from %s", view).isEmpty();
    }

    private static Map<String, String> scenario(String op, String t, String... extra) throws IOException {
        HttpResponse<String> response = server.get(Scenarios.path(op, t, extra));
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return Scenarios.answer(response.body());
    }
}
