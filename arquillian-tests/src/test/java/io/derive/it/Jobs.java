package io.derive.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.derive.it.server.LibertyServer;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

import jakarta.json.JsonObject;

/** The admin API's batch jobs ({@code /derive/api/jobs}) on a {@link LibertyServer}, as the demo administrator. */
final class Jobs {
    private static final Duration TIMEOUT = Duration.ofMinutes(1);

    private Jobs() {
    }

    /**
     * Starts {@code job} with {@code parameters} and answers its status once it ended
     * (COMPLETED, FAILED, STOPPED or ABANDONED); fails the test unless it ended within a minute.
     */
    static JsonObject run(LibertyServer server, String job, JsonObject parameters) throws IOException, InterruptedException {
        HttpResponse<String> started = server.postJson("/derive/api/jobs/" + job, parameters.toString(),
                "Authorization", LibertyServer.ADMIN_AUTHORIZATION);
        assertThat(started.statusCode()).as(started.body()).isEqualTo(200);
        long id = AdminSql.json(started.body()).getJsonNumber("executionId").longValue();
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (true) {
            HttpResponse<String> status = server.get("/derive/api/jobs/" + id, "Authorization", LibertyServer.ADMIN_AUTHORIZATION);
            assertThat(status.statusCode()).as(status.body()).isEqualTo(200);
            JsonObject execution = AdminSql.json(status.body());
            if (List.of("COMPLETED", "FAILED", "STOPPED", "ABANDONED").contains(execution.getString("batchStatus"))) {
                return execution;
            }
            assertThat(System.nanoTime()).as("%s %d still %s", job, id, execution.getString("batchStatus")).isLessThan(deadline);
            Thread.sleep(100);
        }
    }
}
