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
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * {@code POST /api/jobs/mv-refresh} with {@code {"view": "v"}} starts a refresh and answers
 * {@code {"executionId": n}}; {@code GET /api/jobs/{executionId}} answers
 * {@code {"batchStatus": ..., "exitStatus": ...}} (404 for an unknown execution).
 */
@Path("jobs")
@Produces(MediaType.APPLICATION_JSON)
public class JobsResource {

    static final String MV_REFRESH = "mv-refresh";

    @POST
    @Path(MV_REFRESH)
    @Consumes(MediaType.APPLICATION_JSON)
    public Response startRefresh(String body) {
        String view;
        try (JsonReader reader = Json.createReader(new StringReader(body == null ? "" : body))) {
            JsonObject request = reader.readObject();
            view = request.getString("view", null);
        } catch (JsonException | ClassCastException e) {
            return SqlResource.badRequest("malformed request: " + e.getMessage());
        }
        // Checked here too so that a bad name is a 400 for the caller, not a failed job later.
        if (!Identifiers.isIdentifier(view)) {
            return SqlResource.badRequest("\"view\" must be a materialized view name");
        }
        Properties parameters = new Properties();
        parameters.setProperty("view", view);
        long executionId = operator().start(MV_REFRESH, parameters);
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
