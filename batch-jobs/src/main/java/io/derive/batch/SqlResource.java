package io.derive.batch;

import io.derive.batch.api.ApiSchemas;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import io.derive.client.DeriveConnection;
import io.derive.client.DeriveConnectionFactory;
import io.derive.engine.api.DeriveException;

import java.io.StringReader;

import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * {@code POST /api/sql} with {@code {"sql": "...", "params": [...]}}: runs one statement in its own
 * transaction and answers {@code {"columns": [...], "rows": [[...]], "updateCount": n}}, or 400
 * with {@code {"error": message, "code": code}}.
 */
@Path("sql")
public class SqlResource {

    static final String BAD_REQUEST = "bad-request";

    @Inject
    DeriveConnectionFactory connectionFactory;

    @Operation(summary = "Run one SQL statement in its own transaction")
    @RequestBody(required = true, content = @Content(schema = @Schema(implementation = ApiSchemas.SqlRequest.class)))
    @APIResponse(responseCode = "200", description = "The statement's result",
            content = @Content(schema = @Schema(implementation = ApiSchemas.SqlResult.class)))
    @APIResponse(responseCode = "400", description = "A malformed request, or the engine's refusal",
            content = @Content(schema = @Schema(implementation = ApiSchemas.Error.class)))
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response run(String body) {
        String sql;
        Object[] params;
        try (JsonReader reader = Json.createReader(new StringReader(body == null ? "" : body))) {
            JsonObject request = reader.readObject();
            if (!(request.get("sql") instanceof jakarta.json.JsonString s)) {
                return badRequest("the request needs a string member \"sql\"");
            }
            sql = s.getString();
            JsonValue p = request.getOrDefault("params", JsonValue.EMPTY_JSON_ARRAY);
            if (p.getValueType() != JsonValue.ValueType.ARRAY) {
                return badRequest("\"params\" must be an array");
            }
            params = JsonValues.toJava((JsonArray) p);
        } catch (JsonException | ClassCastException | IllegalArgumentException e) {
            return badRequest("malformed request: " + e.getMessage());
        }
        try (DeriveConnection connection = connectionFactory.getConnection()) {
            return Response.ok(JsonValues.toJson(connection.run(sql, params))).build();
        } catch (DeriveException e) {
            return Response.status(Response.Status.BAD_REQUEST)
                    .type(MediaType.APPLICATION_JSON)
                    .entity(JsonValues.error(e.getMessage(), e.code())).build();
        }
    }

    static Response badRequest(String message) {
        return Response.status(Response.Status.BAD_REQUEST)
                .type(MediaType.APPLICATION_JSON)
                .entity(JsonValues.error(message, BAD_REQUEST)).build();
    }
}
