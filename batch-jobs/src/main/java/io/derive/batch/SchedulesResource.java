package io.derive.batch;

import io.derive.batch.api.ApiSchemas;
import io.derive.client.DeriveConnection;
import io.derive.client.DeriveConnectionFactory;
import io.derive.engine.api.DeriveException;
import io.derive.engine.api.Row;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

import java.io.StringReader;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import jakarta.batch.runtime.JobExecution;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * Refresh schedules (semantics §9) through the admin API, as the catalog keeps them:
 * <ul>
 *   <li>{@code GET /api/schedules}: every materialized view of schema {@code main} that has a
 *       schedule, with the next time it names, how its last refresh since the open ended, and
 *       its latest {@code mv-refresh} execution from the job repository ({@code lastRun}, kept
 *       across restarts);</li>
 *   <li>{@code PUT /api/schedules/{view}} with {@code {"schedule": "0 * * * *"}} runs {@code alter
 *       materialized view view set refresh schedule '…'} and answers the view's schedule;</li>
 *   <li>{@code DELETE /api/schedules/{view}} runs {@code … drop refresh schedule}.</li>
 * </ul>
 * Each change is one transaction; the engine's refusal (an unknown view, a malformed schedule,
 * none to drop) is a 400 with its message. The scheduler
 * ({@link io.derive.batch.schedule.RefreshScheduler}) picks a change up within a second.
 */
@Path("schedules")
@Produces(MediaType.APPLICATION_JSON)
public class SchedulesResource {

    @Inject
    DeriveConnectionFactory connectionFactory;

    @Operation(summary = "List the materialized views that have a refresh schedule")
    @APIResponse(responseCode = "200", description = "The schedules",
            content = @Content(schema = @Schema(implementation = ApiSchemas.Schedules.class)))
    @APIResponse(responseCode = "400", description = "The engine's refusal",
            content = @Content(schema = @Schema(implementation = ApiSchemas.Error.class)))
    @GET
    public Response schedules() {
        try (DeriveConnection connection = connectionFactory.getConnection()) {
            JsonArrayBuilder list = Json.createArrayBuilder();
            schedules(connection, null).forEach(list::add);
            return Response.ok(Json.createObjectBuilder().add("schedules", list).build()).build();
        } catch (DeriveException e) {
            return refused(e);
        }
    }

    @Operation(summary = "Set a materialized view's refresh schedule")
    @RequestBody(required = true, content = @Content(schema = @Schema(implementation = ApiSchemas.ScheduleRequest.class)))
    @APIResponse(responseCode = "200", description = "The view's schedule as set",
            content = @Content(schema = @Schema(implementation = ApiSchemas.Schedule.class)))
    @APIResponse(responseCode = "400", description = "A malformed request, or the engine's refusal",
            content = @Content(schema = @Schema(implementation = ApiSchemas.Error.class)))
    @PUT
    @Path("{view}")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response set(@PathParam("view") String view, String body) {
        String schedule;
        try (JsonReader reader = Json.createReader(new StringReader(body == null ? "" : body))) {
            JsonObject request = reader.readObject();
            if (!(request.get("schedule") instanceof JsonString s)) {
                return SqlResource.badRequest("the request needs a string member \"schedule\"");
            }
            schedule = s.getString();
        } catch (JsonException | ClassCastException e) {
            return SqlResource.badRequest("malformed request: " + e.getMessage());
        }
        return change(view, "set refresh schedule '" + schedule.replace("'", "''") + "'");
    }

    @Operation(summary = "Drop a materialized view's refresh schedule")
    @APIResponse(responseCode = "200", description = "The view, now without a schedule",
            content = @Content(schema = @Schema(implementation = ApiSchemas.Schedule.class)))
    @APIResponse(responseCode = "400", description = "The engine's refusal: no such view, or no schedule to drop",
            content = @Content(schema = @Schema(implementation = ApiSchemas.Error.class)))
    @DELETE
    @Path("{view}")
    public Response drop(@PathParam("view") String view) {
        return change(view, "drop refresh schedule");
    }

    private Response change(String view, String action) {
        if (!Identifiers.isIdentifier(view)) {
            return SqlResource.badRequest("the path must name a materialized view");
        }
        try (DeriveConnection connection = connectionFactory.getConnection()) {
            connection.run("alter materialized view " + view + " " + action);
            return Response.ok(schedules(connection, view).stream().findFirst()
                    .orElseGet(() -> Json.createObjectBuilder().add("view", view).addNull("schedule")).build()).build();
        } catch (DeriveException e) {
            return refused(e);
        }
    }

    /** The scheduled views of {@code main}, or {@code view} alone (null: every one). */
    private static List<JsonObjectBuilder> schedules(DeriveConnection connection, String view) {
        List<Row> rows = connection.run("select name, refresh_schedule, next_refresh, last_refresh, last_refresh_outcome"
                        + " from materialized_views() where schema = 'main' and refresh_schedule is not null"
                        + (view == null ? "" : " and lower(name) = lower(?)") + " order by name",
                view == null ? new Object[0] : new Object[] {view}).rows();
        Map<String, JobExecution> lastRuns = rows.isEmpty() ? Map.of() : JobsResource.latestByView(JobsResource.MV_REFRESH);
        return rows.stream().map(row -> json(row, lastRuns)).toList();
    }

    private static JsonObjectBuilder json(Row row, Map<String, JobExecution> lastRuns) {
        String view = (String) row.get("name");
        JsonObjectBuilder json = Json.createObjectBuilder().add("view", view)
                .add("schedule", (String) row.get("refresh_schedule")).add("nextRefresh", (String) row.get("next_refresh"));
        JsonValues.addNullable(json, "lastRefresh", (String) row.get("last_refresh"));
        JsonValues.addNullable(json, "lastRefreshOutcome", (String) row.get("last_refresh_outcome"));
        JobExecution lastRun = lastRuns.get(view.toLowerCase(Locale.ROOT));
        if (lastRun != null) {
            json.add("lastRun", JobsResource.summary(lastRun));
        }
        return json;
    }

    private static Response refused(DeriveException e) {
        return Response.status(Response.Status.BAD_REQUEST).type(MediaType.APPLICATION_JSON)
                .entity(JsonValues.error(e.getMessage(), e.code())).build();
    }
}
