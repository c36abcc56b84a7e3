package io.derive.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.derive.it.server.HealthAnswer;
import io.derive.it.server.LibertyServer;
import io.derive.it.server.Readiness;

import jakarta.json.Json;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code /health/ready} during a restart, after a SIGKILL, whose open rehydrates a lot: a
 * memory-hosted view over a Derby source of 300,000 rows, refilled at every open. The
 * application's start does not wait for the open, so the server answers — DOWN, naming the
 * opening database — until the open is done.
 */
class ReadinessIT {
    private static final int ROWS = 300_000;

    private static final LibertyServer server = LibertyServer.fromBuild();
    private static final AdminSql sql = new AdminSql(server);

    @BeforeAll
    static void deployOnAFreshServer() {
        server.reset();
        server.deploy(TestApplication.ear());
    }

    @AfterAll
    static void stopServer() {
        server.stop();
    }

    @Test
    void afterAKillReadinessIsDownWhileALargeRehydrateRunsAndUpOnceTheDatabaseIsOpen() throws Exception {
        server.start();
        sql.run("create table big (k integer primary key, g integer not null)");
        sql.run("create materialized view big_mv using memory as select k, g from big");
        sql.run("insert into big with recursive c(x) as (select 1 union all select x + 1 from c where x < " + ROWS + ")"
                + " select x, x % 100 from c");
        server.kill();

        Readiness restart = server.start();

        assertThat(restart.answers()).as(restart.toString())
                .anySatisfy(answer -> {
                    assertThat(answer.isDown()).isTrue();
                    assertThat(answer.body()).contains("\"derive-database-ready\"", "\"OPENING\"");
                });
        assertThat(restart.answers().get(restart.answers().size() - 1).body()).contains("\"OPEN\"");
        assertThat(sql.rows("select name, action from rehydrate_report()"))
                .contains(Json.createArrayBuilder().add("big_mv").add("refilled").build());
        assertThat(sql.rows("select count(*) from big_mv")).containsExactly(Json.createArrayBuilder().add(ROWS).build());
        HealthAnswer live = server.health("/health/live");
        assertThat(live.isUp()).as(live.toString()).isTrue();
    }
}
