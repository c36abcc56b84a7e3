package io.derive.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.derive.it.server.LibertyServer;

import java.io.IOException;
import java.io.StringReader;
import java.net.http.HttpResponse;

import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;

/** {@code POST /derive/api/sql} of the application on a {@link LibertyServer}, as the demo administrator. */
final class AdminSql {
    private final LibertyServer server;

    AdminSql(LibertyServer server) {
        this.server = server;
    }

    /** Runs one statement in its own transaction; fails the test unless it succeeded. */
    JsonObject run(String sql) throws IOException {
        HttpResponse<String> response = post(sql);
        assertThat(response.statusCode()).as("%s answered %s", sql, response.body()).isEqualTo(200);
        return json(response.body());
    }

    /** Runs one statement that must fail; answers its {@code {"error", "code"}}. */
    JsonObject fails(String sql) throws IOException {
        HttpResponse<String> response = post(sql);
        assertThat(response.statusCode()).as("%s answered %s", sql, response.body()).isEqualTo(400);
        return json(response.body());
    }

    private HttpResponse<String> post(String sql) throws IOException {
        String request = Json.createObjectBuilder().add("sql", sql).build().toString();
        return server.postJson("/derive/api/sql", request, "Authorization", LibertyServer.ADMIN_AUTHORIZATION);
    }

    static JsonObject json(String body) {
        try (JsonReader reader = Json.createReader(new StringReader(body))) {
            return reader.readObject();
        }
    }

    /** The rows a query answers, each a JSON array of its values. */
    JsonArray rows(String query) throws IOException {
        return run(query).getJsonArray("rows");
    }
}
