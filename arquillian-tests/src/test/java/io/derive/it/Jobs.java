package io.derive.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.derive.it.server.LibertyServer;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

import javax.net.ssl.HttpsURLConnection;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

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
        return awaitEnd(server, start(server, job, parameters), TIMEOUT);
    }

    /** Starts {@code job} with {@code parameters}; answers the execution id. */
    static long start(LibertyServer server, String job, JsonObject parameters) throws IOException {
        return executionId(server.postJson("/derive/api/jobs/" + job, parameters.toString(),
                "Authorization", LibertyServer.ADMIN_AUTHORIZATION));
    }

    /** Restarts execution {@code id}; answers the new execution's id. */
    static long restart(LibertyServer server, long id) throws IOException {
        return executionId(server.postJson("/derive/api/jobs/" + id + "/restart", "",
                "Authorization", LibertyServer.ADMIN_AUTHORIZATION));
    }

    /** Asks execution {@code id} to stop (between chunks). */
    static void stop(LibertyServer server, long id) throws IOException {
        executionId(server.postJson("/derive/api/jobs/" + id + "/stop", "", "Authorization", LibertyServer.ADMIN_AUTHORIZATION));
    }

    /**
     * Execution {@code id} as Liberty's own batch REST API ({@code batchManagement-1.0}) shows it,
     * over HTTPS on {@code derive.harness.https.port}, trusting the server's self-signed certificate.
     */
    static JsonObject libertyExecution(long id) throws IOException, GeneralSecurityException {
        TrustManager[] trustAll = {new X509TrustManager() {
            @Override
            public void checkClientTrusted(X509Certificate[] chain, String authType) {
            }

            @Override
            public void checkServerTrusted(X509Certificate[] chain, String authType) {
            }

            @Override
            public X509Certificate[] getAcceptedIssuers() {
                return new X509Certificate[0];
            }
        }};
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(null, trustAll, null);
        URL url = URI.create("https://localhost:" + Integer.getInteger("derive.harness.https.port")
                + "/ibm/api/batch/jobexecutions/" + id).toURL();
        HttpsURLConnection connection = (HttpsURLConnection) url.openConnection();
        connection.setSSLSocketFactory(tls.getSocketFactory());
        connection.setHostnameVerifier((host, session) -> true);
        connection.setRequestProperty("Authorization", LibertyServer.ADMIN_AUTHORIZATION);
        try (InputStream body = connection.getInputStream()) {
            assertThat(connection.getResponseCode()).isEqualTo(200);
            return AdminSql.json(new String(body.readAllBytes(), StandardCharsets.UTF_8));
        } finally {
            connection.disconnect();
        }
    }

    /** The admin API's status of execution {@code id}, its steps included. */
    static JsonObject status(LibertyServer server, long id) throws IOException {
        HttpResponse<String> status = server.get("/derive/api/jobs/" + id, "Authorization", LibertyServer.ADMIN_AUTHORIZATION);
        assertThat(status.statusCode()).as(status.body()).isEqualTo(200);
        return AdminSql.json(status.body());
    }

    /** The status of execution {@code id} once it ended; fails the test unless it ended within {@code timeout}. */
    static JsonObject awaitEnd(LibertyServer server, long id, Duration timeout) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            JsonObject execution = status(server, id);
            if (List.of("COMPLETED", "FAILED", "STOPPED", "ABANDONED").contains(execution.getString("batchStatus"))) {
                return execution;
            }
            assertThat(System.nanoTime()).as("%d still %s", id, execution.getString("batchStatus")).isLessThan(deadline);
            Thread.sleep(100);
        }
    }

    /** The progress the chunk step of refresh execution {@code status} recorded; empty before its first chunk. */
    static JsonObject progress(JsonObject status) {
        for (JsonValue step : status.getJsonArray("steps")) {
            JsonObject s = step.asJsonObject();
            if (s.getString("name").equals("chunks") && s.containsKey("progress")) {
                return s.getJsonObject("progress");
            }
        }
        return JsonValue.EMPTY_JSON_OBJECT;
    }

    /** The step named {@code name} of execution {@code status}. */
    static JsonObject step(JsonObject status, String name) {
        for (JsonValue step : status.getJsonArray("steps")) {
            if (step.asJsonObject().getString("name").equals(name)) {
                return step.asJsonObject();
            }
        }
        throw new AssertionError("no step " + name + " in " + status);
    }

    private static long executionId(HttpResponse<String> response) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return AdminSql.json(response.body()).getJsonNumber("executionId").longValue();
    }
}
