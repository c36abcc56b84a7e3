package io.derive.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.derive.it.server.LibertyServer;
import io.derive.it.server.Readiness;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Two-phase commit of a Derive write (a Derby-hosted source with a projection and a group-by
 * view) and a row of the Derby XA data source jdbc/second, in one container-managed transaction,
 * with the server JVM halted inside it by the test-only hook {@code derive.rar.testHaltAt}; the
 * server is then started again without the hook, and Liberty's own recovery decides the branch
 * through the adapter. Both resources end the same way, and every view equals its body.
 */
class TwoPhaseRecoveryIT {
    private static final String HALT_AT = "derive.rar.testHaltAt";
    /** The exit status of a JVM the hook halted. */
    private static final int HALTED = 87;
    /** jdbc/second on disk, so that what it prepared or committed outlives the JVM. */
    private static final String SECOND_ON_DISK = """
            <server>
              <dataSource id="secondDB">
                <properties.derby.embedded databaseName="${server.output.dir}/databases/second" createDatabase="create"/>
              </dataSource>
            </server>
            """;

    private static final LibertyServer server = LibertyServer.fromBuild();
    private static final AdminSql sql = new AdminSql(server);

    @BeforeAll
    static void deployOnAFreshServer() {
        server.reset();
        server.deploy(TestApplication.ear());
        server.configure("second-on-disk", SECOND_ON_DISK);
    }

    @AfterAll
    static void stopServer() {
        server.stop();
    }

    @Test
    void aHaltBeforeDerivesCommitIsCommittedByRecoveryInBothResources() throws Exception {
        String t = "halt_before_commit";
        restartHaltingAt("beforeCommit");
        arrange(t);

        haltInTwoPhaseCommitOfRow(t, 10);
        Readiness recovered = server.start();

        assertThat(read(t)).containsEntry("derive", "[1, 2, 3, 10]").containsEntry("deriveView", "[2, 3, 10]")
                .containsEntry("second", "[10]");
        assertViewsEqualTheirBodies(t);
        assertThat(server.log()).as(recovered.toString()).containsPattern("in-doubt transaction .* committed");
    }

    @Test
    void aHaltAfterDerivesPrepareIsRolledBackByRecoveryInBothResources() throws Exception {
        String t = "halt_after_prepare";
        restartHaltingAt("afterPrepare");
        arrange(t);

        haltInTwoPhaseCommitOfRow(t, 10);
        Readiness recovered = server.start();

        assertThat(read(t)).containsEntry("derive", "[1, 2, 3]").containsEntry("deriveView", "[2, 3]")
                .containsEntry("second", "[]");
        assertViewsEqualTheirBodies(t);
        assertThat(server.log()).as(recovered.toString()).containsPattern("in-doubt transaction .* rolled back");
    }

    private static void restartHaltingAt(String point) {
        // Whatever ran before is decided and committed: a kill ends it as well as a stop, sooner.
        if (server.isRunning()) {
            server.kill();
        }
        server.start(Map.of(HALT_AT, point));
    }

    /** Table t with rows 1..3, its projection t_mv (n > 0) and a group-by view t_by_n; an empty table t in jdbc/second. */
    private static void arrange(String t) throws IOException {
        assertThat(scenario("setup", t)).containsEntry("outcome", "ok");
        sql.run("insert into " + t + " values (1, 'a', 0), (2, 'b', 1), (3, 'c', 2)");
        sql.run("create materialized view " + t + "_by_n as select n, count(*) as c, sum(k) as s from " + t + " group by n");
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
