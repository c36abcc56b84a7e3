package io.derive.batch;

import java.io.StringReader;
import java.util.Properties;

import jakarta.batch.operations.JobOperator;
import jakarta.batch.operations.NoSuchJobExecutionException;
import jakarta.batch.runtime.BatchRuntime;
import jakarta.batch.runtime.JobExecution;
import jakarta.json.Json;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * {@code POST /api/jobs/mv-refresh} with {@code {"view": "v"}} starts a refresh, {@code POST
 * /api/jobs/mv-verify} with {@code {"view": "v", "repair": false}} a verification (repair is
 * optional, false by default); both answer {@code {"executionId": n}}. {@code GET
 * /api/jobs/{executionId}} answers {@code {"batchStatus": ..., "exitStatus": ...}} (404 for an
 * unknown execution).
 */
@Path("jobs")
@Produces(MediaType.APPLICATION_JSON)
public class JobsResource {

    static final String MV_REFRESH = "mv-refresh";
    static final String MV_VERIFY = "mv-verify";

    @POST
    @Path(MV_REFRESH)
    @Consumes(MediaType.APPLICATION_JSON)
    public Response startRefresh(String body) {
        return start(MV_REFRESH, body);
    }

    @POST
    @Path(MV_VERIFY)
    @Consumes(MediaType.APPLICATION_JSON)
    public Response startVerify(String body) {
        return start(MV_VERIFY, body);
    }

    /** Starts {@code job} for the request's {@code view} (and, for mv-verify, {@code repair}). */
    private static Response start(String job, String body) {
        String view;
        boolean repair;
        try (JsonReader reader = Json.createReader(new StringReader(body == null ? "" : body))) {
            JsonObject request = reader.readObject();
            view = request.getString("view", null);
            JsonValue given = request.getOrDefault("repair", JsonValue.FALSE);
            if (given != JsonValue.TRUE && given != JsonValue.FALSE) {
                return SqlResource.badRequest("\"repair\" must be true or false");
            }
            repair = given == JsonValue.TRUE;
        } catch (JsonException | ClassCastException e) {
            return SqlResource.badRequest("malformed request: " + e.getMessage());
        }
        // Checked here too so that a bad name is a 400 for the caller, not a failed job later.
        if (!Identifiers.isIdentifier(view)) {
            return SqlResource.badRequest("\"view\" must be a materialized view name");
        }
        Properties parameters = new Properties();
        parameters.setProperty("view", view);
        if (job.equals(MV_VERIFY)) {
            parameters.setProperty("repair", Boolean.toString(repair));
        }
        long executionId = operator().start(job, parameters);
        return Response.ok(Json.createObjectBuilder().add("executionId", executionId).build()).build();
    }

    @GET
    @Path("{executionId}")
    public Response status(@PathParam("executionId") long executionId) {
        JobExecution execution;
        try {
            execution = operator().getJobExecution(executionId);
        } catch (NoSuchJobExecutionException e) {
            return Response.status(Response.Status.NOT_FOUND)
                    .entity(JsonValues.error("no such job execution: " + executionId, "not-found")).build();
        }
        JsonObjectBuilder json = Json.createObjectBuilder()
                .add("executionId", executionId)
                .add("jobName", execution.getJobName())
                .add("batchStatus", execution.getBatchStatus().name());
        if (execution.getExitStatus() == null) {
            json.addNull("exitStatus");
        } else {
            json.add("exitStatus", execution.getExitStatus());
        }
        return Response.ok(json.build()).build();
    }

    private static JobOperator operator() {
        return BatchRuntime.getJobOperator();
    }
}
