package io.derive.batch;

import io.derive.batch.api.ApiSchemas;
import io.derive.batch.rehydrate.RefillRecord;
import io.derive.batch.rehydrate.RefillRecords;
import io.derive.batch.verify.DriftTally;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.function.BiConsumer;

import jakarta.batch.operations.JobExecutionAlreadyCompleteException;
import jakarta.batch.operations.JobExecutionNotMostRecentException;
import jakarta.batch.operations.JobExecutionNotRunningException;
import jakarta.batch.operations.JobOperator;
import jakarta.batch.operations.JobRestartException;
import jakarta.batch.operations.NoSuchJobExecutionException;
import jakarta.batch.runtime.BatchRuntime;
import jakarta.batch.runtime.JobExecution;
import jakarta.batch.runtime.JobInstance;
import jakarta.batch.runtime.Metric;
import jakarta.batch.runtime.StepExecution;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.Json;
import jakarta.json.JsonException;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * The batch jobs of the admin API, as JSON:
 * <ul>
 *   <li>{@code POST /api/jobs/mv-refresh} with {@code {"view": "v", "chunkSize": 10000,
 *       "chunkSeconds": 60}} (the sizes optional) starts a chunked refresh, {@code POST
 *       /api/jobs/mv-verify} with {@code {"view": "v", "repair": false, "rangeRows": 10000}} (the
 *       last two optional) a verification range of keys by range,
 *       {@code POST /api/jobs/mv-attach} with {@code {"table": "t", "body": "select …",
 *       "columns": ["a", "b"], "chunkSize": 10000, "chunkSeconds": 60}} (columns and sizes
 *       optional) a chunked attach of a derivation to a plain table; each answers
 *       {@code {"executionId": n}}.</li>
 *   <li>{@code GET /api/jobs?view=v}: the executions of the jobs for that view (or the table an
 *       attach made one), newest first.</li>
 *   <li>{@code GET /api/jobs/{executionId}}: its batch and exit status, times, and per step the
 *       counts (rows read and written, commits, rollbacks) and, for a refresh's chunk step, its
 *       progress: chunks, the first chunk of this execution, rows of the body written and
 *       expected, percent, elapsed seconds and rows per second (404 for an unknown execution).</li>
 *   <li>{@code POST /api/jobs/{executionId}/stop} (takes effect between chunks) and
 *       {@code POST /api/jobs/{executionId}/restart} (answers the new {@code executionId}); a
 *       refused operation is a 409 with the batch runtime's reason.</li>
 * </ul>
 */
@Path("jobs")
@Produces(MediaType.APPLICATION_JSON)
public class JobsResource {

    public static final String MV_REFRESH = "mv-refresh";
    static final String MV_VERIFY = "mv-verify";
    static final String MV_ATTACH = "mv-attach";
    public static final String MV_REHYDRATE = "mv-rehydrate";
    private static final int MAX_INSTANCES = 200;

    @Operation(summary = "Start mv-refresh: refresh a materialized view in chunks")
    @RequestBody(required = true, content = @Content(schema = @Schema(implementation = ApiSchemas.RefreshRequest.class)))
    @APIResponse(responseCode = "200", description = "The execution started",
            content = @Content(schema = @Schema(implementation = ApiSchemas.ExecutionId.class)))
    @APIResponse(responseCode = "400", description = "A malformed request or a refused name",
            content = @Content(schema = @Schema(implementation = ApiSchemas.Error.class)))
    @POST
    @Path(MV_REFRESH)
    @Consumes(MediaType.APPLICATION_JSON)
    public Response startRefresh(String body) {
        return start(MV_REFRESH, body);
    }

    @Operation(summary = "Start mv-verify: compare a materialized view with its body, optionally repairing it")
    @RequestBody(required = true, content = @Content(schema = @Schema(implementation = ApiSchemas.VerifyRequest.class)))
    @APIResponse(responseCode = "200", description = "The execution started",
            content = @Content(schema = @Schema(implementation = ApiSchemas.ExecutionId.class)))
    @APIResponse(responseCode = "400", description = "A malformed request or a refused name",
            content = @Content(schema = @Schema(implementation = ApiSchemas.Error.class)))
    @POST
    @Path(MV_VERIFY)
    @Consumes(MediaType.APPLICATION_JSON)
    public Response startVerify(String body) {
        return start(MV_VERIFY, body);
    }

    @Operation(summary = "Start mv-attach: attach a derivation to a plain table in chunks")
    @RequestBody(required = true, content = @Content(schema = @Schema(implementation = ApiSchemas.AttachRequest.class)))
    @APIResponse(responseCode = "200", description = "The execution started",
            content = @Content(schema = @Schema(implementation = ApiSchemas.ExecutionId.class)))
    @APIResponse(responseCode = "400", description = "A malformed request or a refused name",
            content = @Content(schema = @Schema(implementation = ApiSchemas.Error.class)))
    @POST
    @Path(MV_ATTACH)
    @Consumes(MediaType.APPLICATION_JSON)
    public Response startAttach(String body) {
        return start(MV_ATTACH, body);
    }

    @Operation(summary = "Start mv-rehydrate: refill the materialized views a deferred rehydrate left pending")
    @APIResponse(responseCode = "200", description = "The execution started",
            content = @Content(schema = @Schema(implementation = ApiSchemas.ExecutionId.class)))
    @POST
    @Path(MV_REHYDRATE)
    public Response startRehydrate() {
        Properties parameters = new Properties();
        parameters.setProperty(ServerInitiatedJobs.TRIGGER, "api");
        return Response.ok(Json.createObjectBuilder().add("executionId", operator().start(MV_REHYDRATE, parameters)).build()).build();
    }

    /** Starts {@code job} for the request's {@code view} (an attach's {@code table}) and the job's own parameters. */
    private static Response start(String job, String body) {
        Properties parameters = new Properties();
        try (JsonReader reader = Json.createReader(new StringReader(body == null ? "" : body))) {
            JsonObject request = reader.readObject();
            String target = job.equals(MV_ATTACH) ? "table" : "view";
            String name = request.getString(target, null);
            // Checked here too so that a bad name is a 400 for the caller, not a failed job later.
            if (!Identifiers.isIdentifier(name)) {
                return SqlResource.badRequest("\"" + target + "\" must be a " + (job.equals(MV_ATTACH) ? "table" : "materialized view")
                        + " name");
            }
            parameters.setProperty(target, name);
            if (job.equals(MV_ATTACH)) {
                Response refused = attachParameters(request, parameters);
                if (refused != null) {
                    return refused;
                }
            }
            if (job.equals(MV_VERIFY)) {
                JsonValue given = request.getOrDefault("repair", JsonValue.FALSE);
                if (given != JsonValue.TRUE && given != JsonValue.FALSE) {
                    return SqlResource.badRequest("\"repair\" must be true or false");
                }
                parameters.setProperty("repair", Boolean.toString(given == JsonValue.TRUE));
            }
            for (String size : job.equals(MV_VERIFY) ? List.of("rangeRows") : List.of("chunkSize", "chunkSeconds")) {
                JsonValue given = request.get(size);
                if (given != null) {
                    if (!(given instanceof JsonNumber n) || !n.isIntegral() || n.longValue() < 1
                            || n.longValue() > 1_000_000) {
                        return SqlResource.badRequest("\"" + size + "\" must be a whole number from 1 to 1000000");
                    }
                    parameters.setProperty(size, Long.toString(n.longValue()));
                }
            }
        } catch (JsonException | ClassCastException e) {
            return SqlResource.badRequest("malformed request: " + e.getMessage());
        }
        parameters.setProperty(ServerInitiatedJobs.TRIGGER, "api");
        long executionId = operator().start(job, parameters);
        return Response.ok(Json.createObjectBuilder().add("executionId", executionId).build()).build();
    }

    /** An attach's body and column list as job parameters; a 400 when either is malformed, else null. */
    private static Response attachParameters(JsonObject request, Properties parameters) {
        if (!(request.get("body") instanceof JsonString body) || body.getString().isBlank()) {
            return SqlResource.badRequest("\"body\" must be the derivation's select, as a string");
        }
        parameters.setProperty("body", body.getString());
        JsonValue columns = request.get("columns");
        if (columns != null) {
            List<String> names = new ArrayList<>();
            if (columns instanceof JsonArray list) {
                for (JsonValue name : list) {
                    if (name instanceof JsonString s && Identifiers.isIdentifier(s.getString())) {
                        names.add(s.getString());
                    }
                }
            }
            if (!(columns instanceof JsonArray list) || names.size() != list.size() || names.isEmpty()) {
                return SqlResource.badRequest("\"columns\" must be a non-empty array of column names");
            }
            parameters.setProperty("columns", String.join(", ", names));
        }
        return null;
    }

    @Operation(summary = "List the latest executions of every job, newest first, with their views and progress")
    @APIResponse(responseCode = "200", description = "The executions",
            content = @Content(schema = @Schema(implementation = ApiSchemas.RecentExecutions.class)))
    @APIResponse(responseCode = "400", description = "A limit out of range",
            content = @Content(schema = @Schema(implementation = ApiSchemas.Error.class)))
    @GET
    @Path("recent")
    public Response recent(@QueryParam("limit") @DefaultValue("30") int limit) {
        if (limit < 1 || limit > MAX_INSTANCES) {
            return SqlResource.badRequest("\"limit\" must be from 1 to " + MAX_INSTANCES);
        }
        JobOperator operator = operator();
        List<JobExecution> executions = new ArrayList<>();
        for (String job : ranOf(operator, MV_REFRESH, MV_VERIFY, MV_ATTACH, MV_REHYDRATE)) {
            for (JobInstance instance : operator.getJobInstances(job, 0, limit)) {
                executions.addAll(operator.getJobExecutions(instance));
            }
        }
        executions.sort(Comparator.comparingLong(JobExecution::getExecutionId).reversed());
        JsonArrayBuilder list = Json.createArrayBuilder();
        for (JobExecution execution : executions.subList(0, Math.min(limit, executions.size()))) {
            JsonObjectBuilder json = summary(execution);
            Properties parameters = operator.getParameters(execution.getExecutionId());
            JsonValues.addNullable(json, "view", parameters == null ? null
                    : parameters.getProperty(execution.getJobName().equals(MV_ATTACH) ? "table" : "view"));
            for (StepExecution step : operator.getStepExecutions(execution.getExecutionId())) {
                progress(step).ifPresent(p -> json.add("progress", p));
            }
            list.add(json);
        }
        return Response.ok(Json.createObjectBuilder().add("executions", list).build()).build();
    }

    /**
     * Those of {@code jobs} the job repository knows: asking for the instances of a job that never
     * ran throws {@code NoSuchJobException}, which Liberty also records as an incident.
     */
    static List<String> ranOf(JobOperator operator, String... jobs) {
        Set<String> ran = operator.getJobNames();
        return Arrays.stream(jobs).filter(ran::contains).toList();
    }

    @Operation(summary = "List the executions of the jobs for one view, newest first")
    @APIResponse(responseCode = "200", description = "The executions",
            content = @Content(schema = @Schema(implementation = ApiSchemas.Executions.class)))
    @APIResponse(responseCode = "400", description = "A malformed request or a refused name",
            content = @Content(schema = @Schema(implementation = ApiSchemas.Error.class)))
    @GET
    public Response executionsOf(@QueryParam("view") String view) {
        if (!Identifiers.isIdentifier(view)) {
            return SqlResource.badRequest("\"view\" must be a materialized view name");
        }
        JsonArrayBuilder list = Json.createArrayBuilder();
        executionsOf(view, MV_REFRESH, MV_VERIFY, MV_ATTACH).forEach(e -> list.add(summary(e)));
        return Response.ok(Json.createObjectBuilder().add("view", view).add("executions", list).build()).build();
    }

    /** The executions of {@code jobs} for {@code view} (an attach's table), newest first. */
    private static List<JobExecution> executionsOf(String view, String... jobs) {
        List<JobExecution> executions = new ArrayList<>();
        forEachExecution((execution, target) -> {
            if (view.equalsIgnoreCase(target)) {
                executions.add(execution);
            }
        }, jobs);
        executions.sort(Comparator.comparingLong(JobExecution::getExecutionId).reversed());
        return executions;
    }

    /** The newest execution of {@code job} for each view it ran for, by the view's lower-case name: one pass over the repository. */
    static Map<String, JobExecution> latestByView(String job) {
        Map<String, JobExecution> latest = new HashMap<>();
        forEachExecution((execution, view) -> {
            if (view != null) {
                latest.merge(view.toLowerCase(Locale.ROOT), execution,
                        (a, b) -> a.getExecutionId() >= b.getExecutionId() ? a : b);
            }
        }, job);
        return latest;
    }

    /** Each execution of the latest {@value #MAX_INSTANCES} instances of each of {@code jobs}, with the view (an attach's table) it names. */
    private static void forEachExecution(BiConsumer<JobExecution, String> action, String... jobs) {
        JobOperator operator = operator();
        for (String job : ranOf(operator, jobs)) {
            for (JobInstance instance : operator.getJobInstances(job, 0, MAX_INSTANCES)) {
                for (JobExecution execution : operator.getJobExecutions(instance)) {
                    Properties parameters = operator.getParameters(execution.getExecutionId());
                    action.accept(execution, parameters == null ? null
                            : parameters.getProperty(job.equals(MV_ATTACH) ? "table" : "view"));
                }
            }
        }
    }

    @Operation(summary = "Read an execution: status, steps and a chunked run's progress")
    @APIResponse(responseCode = "200", description = "The execution",
            content = @Content(schema = @Schema(implementation = ApiSchemas.ExecutionStatus.class)))
    @APIResponse(responseCode = "404", description = "No such execution",
            content = @Content(schema = @Schema(implementation = ApiSchemas.Error.class)))
    @GET
    @Path("{executionId}")
    public Response status(@PathParam("executionId") long executionId) {
        JobExecution execution;
        List<StepExecution> steps;
        try {
            execution = operator().getJobExecution(executionId);
            steps = operator().getStepExecutions(executionId);
        } catch (NoSuchJobExecutionException e) {
            return notFound(executionId);
        }
        JsonArrayBuilder stepList = Json.createArrayBuilder();
        for (StepExecution step : steps) {
            stepList.add(step(step));
        }
        return Response.ok(summary(execution).add("steps", stepList).build()).build();
    }

    @Operation(summary = "Stop an execution between chunks")
    @APIResponse(responseCode = "200", description = "Asked to stop",
            content = @Content(schema = @Schema(implementation = ApiSchemas.ExecutionId.class)))
    @APIResponse(responseCode = "404", description = "No such execution",
            content = @Content(schema = @Schema(implementation = ApiSchemas.Error.class)))
    @APIResponse(responseCode = "409", description = "It is not running",
            content = @Content(schema = @Schema(implementation = ApiSchemas.Error.class)))
    @POST
    @Path("{executionId}/stop")
    public Response stop(@PathParam("executionId") long executionId) {
        try {
            operator().stop(executionId);
        } catch (NoSuchJobExecutionException e) {
            return notFound(executionId);
        } catch (JobExecutionNotRunningException e) {
            return conflict("job execution " + executionId + " is not running: " + e.getMessage());
        }
        return Response.ok(Json.createObjectBuilder().add("executionId", executionId).build()).build();
    }

    @Operation(summary = "Restart a failed or stopped execution after its last committed chunk")
    @APIResponse(responseCode = "200", description = "The new execution",
            content = @Content(schema = @Schema(implementation = ApiSchemas.ExecutionId.class)))
    @APIResponse(responseCode = "404", description = "No such execution",
            content = @Content(schema = @Schema(implementation = ApiSchemas.Error.class)))
    @APIResponse(responseCode = "409", description = "It cannot be restarted",
            content = @Content(schema = @Schema(implementation = ApiSchemas.Error.class)))
    @POST
    @Path("{executionId}/restart")
    public Response restart(@PathParam("executionId") long executionId) {
        long restarted;
        try {
            restarted = operator().restart(executionId, operator().getParameters(executionId));
        } catch (NoSuchJobExecutionException e) {
            return notFound(executionId);
        } catch (JobExecutionAlreadyCompleteException | JobExecutionNotMostRecentException | JobRestartException e) {
            return conflict("job execution " + executionId + " cannot be restarted: " + e.getMessage());
        }
        return Response.ok(Json.createObjectBuilder().add("executionId", restarted).build()).build();
    }

    static JsonObjectBuilder summary(JobExecution execution) {
        JsonObjectBuilder json = Json.createObjectBuilder()
                .add("executionId", execution.getExecutionId())
                .add("jobName", execution.getJobName())
                .add("batchStatus", execution.getBatchStatus().name());
        JsonValues.addNullable(json, "exitStatus", execution.getExitStatus());
        JsonValues.addNullable(json, "started", execution.getStartTime() == null ? null : execution.getStartTime().toInstant().toString());
        JsonValues.addNullable(json, "ended", execution.getEndTime() == null ? null : execution.getEndTime().toInstant().toString());
        Properties parameters = execution.getJobParameters();
        JsonValues.addNullable(json, ServerInitiatedJobs.TRIGGER, parameters == null ? null : parameters.getProperty(ServerInitiatedJobs.TRIGGER));
        return json;
    }

    /** A step's counts, and the progress a refresh's chunk step recorded. */
    private static JsonObjectBuilder step(StepExecution step) {
        JsonObjectBuilder json = Json.createObjectBuilder()
                .add("name", step.getStepName())
                .add("batchStatus", step.getBatchStatus().name());
        for (Metric metric : step.getMetrics()) {
            switch (metric.getType()) {
                case READ_COUNT -> json.add("readCount", metric.getValue());
                case WRITE_COUNT -> json.add("writeCount", metric.getValue());
                case COMMIT_COUNT -> json.add("commitCount", metric.getValue());
                case ROLLBACK_COUNT -> json.add("rollbackCount", metric.getValue());
                default -> { }
            }
        }
        progress(step).ifPresent(p -> json.add("progress", p));
        if (step.getPersistentUserData() instanceof RefillRecords records) {
            JsonArrayBuilder refills = Json.createArrayBuilder();
            for (RefillRecord r : records.refills()) {
                refills.add(Json.createObjectBuilder().add("view", r.view()).add("round", r.round())
                        .add("started", r.started().toString()).add("ended", r.ended().toString())
                        .add("rows", r.rows()).add("outcome", r.outcome()));
            }
            json.add("refills", refills);
        }
        return json;
    }

    /**
     * A chunked run's progress as its chunk step recorded it (a verification's: ranges as chunks,
     * the view's keys verified as position, the drifted keys so far); empty for any other step.
     */
    private static Optional<JsonObject> progress(StepExecution step) {
        if (step.getStartTime() == null) {
            return Optional.empty();
        }
        long end = step.getEndTime() == null ? System.currentTimeMillis() : step.getEndTime().getTime();
        double elapsed = Math.max(1, end - step.getStartTime().getTime()) / 1000.0;
        if (step.getPersistentUserData() instanceof RunProgress progress) {
            long rowsThisExecution = metric(step, Metric.MetricType.WRITE_COUNT);
            JsonObjectBuilder p = Json.createObjectBuilder()
                    .add("chunks", progress.chunks())
                    .add("firstChunk", progress.chunksAtStart() + 1)
                    .add("rowsWritten", progress.rowsWritten())
                    .add("position", progress.position())
                    .add("expected", progress.expected())
                    .add("percent", percent(progress.position(), progress.expected()))
                    .add("elapsedSeconds", elapsed)
                    .add("rowsPerSecond", Math.round(rowsThisExecution / elapsed));
            JsonValues.addNullable(p, "lastKey", progress.lastKey());
            return Optional.of(p.build());
        }
        if (step.getPersistentUserData() instanceof DriftTally tally) {
            return Optional.of(Json.createObjectBuilder()
                    .add("chunks", tally.ranges())
                    .add("position", tally.keys())
                    .add("expected", tally.expected())
                    .add("percent", tally.done() ? 100.0 : percent(tally.keys(), tally.expected()))
                    .add("drifted", tally.drifted())
                    .add("elapsedSeconds", elapsed)
                    .add("rowsPerSecond", Math.round(tally.keys() / elapsed))
                    .build());
        }
        return Optional.empty();
    }

    private static double percent(long position, long expected) {
        return expected <= 0 ? 100.0 : Math.min(100.0, Math.round(position * 1000.0 / expected) / 10.0);
    }

    private static long metric(StepExecution step, Metric.MetricType type) {
        for (Metric metric : step.getMetrics()) {
            if (metric.getType() == type) {
                return metric.getValue();
            }
        }
        return 0;
    }

    private static Response notFound(long executionId) {
        return Response.status(Response.Status.NOT_FOUND)
                .entity(JsonValues.error("no such job execution: " + executionId, "not-found")).build();
    }

    private static Response conflict(String message) {
        return Response.status(Response.Status.CONFLICT).type(MediaType.APPLICATION_JSON)
                .entity(JsonValues.error(message, "conflict")).build();
    }

    private static JobOperator operator() {
        return BatchRuntime.getJobOperator();
    }
}
