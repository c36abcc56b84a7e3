package io.derive.batch.api;

import java.util.List;
import java.util.Map;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** The admin API's request and response bodies (see the package documentation). */
public final class ApiSchemas {
    private ApiSchemas() {
    }

    @Schema(name = "Error", description = "A refused request: the engine's or the API's message and a SQLSTATE-like code")
    public record Error(
            @Schema(description = "The message; an engine error ends with line:column") String error,
            @Schema(description = "SQLSTATE-like code, or bad-request, not-found, conflict") String code) {
    }

    @Schema(name = "SqlRequest", description = "One statement and its positional parameters")
    public record SqlRequest(
            @Schema(required = true) String sql,
            @Schema(description = "Values for the statement's ? parameters, in order") List<Object> params) {
    }

    @Schema(name = "SqlResult", description = "A statement's result columns, rows and update count")
    public record SqlResult(List<String> columns, List<List<Object>> rows, long updateCount) {
    }

    @Schema(name = "RefreshRequest", description = "Starts mv-refresh: a chunked refresh of one materialized view")
    public record RefreshRequest(
            @Schema(required = true) String view,
            @Schema(description = "Rows per chunk, 1 to 1000000; 10000 by default") Integer chunkSize,
            @Schema(description = "A chunk also ends after this many seconds; 60 by default") Integer chunkSeconds) {
    }

    @Schema(name = "AttachRequest", description = "Starts mv-attach: attaches a derivation to a plain table in chunks")
    public record AttachRequest(
            @Schema(required = true) String table,
            @Schema(required = true, description = "The derivation's select") String body,
            @Schema(description = "The body's outputs renamed by position") List<String> columns,
            Integer chunkSize,
            Integer chunkSeconds) {
    }

    @Schema(name = "VerifyRequest", description = "Starts mv-verify: compares a view with a fresh evaluation of its body")
    public record VerifyRequest(
            @Schema(required = true) String view,
            @Schema(description = "Rewrite exactly the drifted keys; false by default") Boolean repair,
            @Schema(description = "The view's keys verified per chunk (one range, one transaction); 10000 by default")
            Integer rangeRows) {
    }

    @Schema(name = "ExecutionId", description = "The job execution a request started, stopped or restarted")
    public record ExecutionId(long executionId) {
    }

    @Schema(name = "Execution", description = "A job execution")
    public record Execution(long executionId, String jobName,
                            @Schema(description = "STARTING, STARTED, STOPPING, STOPPED, FAILED, COMPLETED or ABANDONED")
                            String batchStatus,
                            String exitStatus,
                            @Schema(description = "ISO-8601 instant") String started,
                            @Schema(description = "ISO-8601 instant; null while running") String ended,
                            @Schema(description = "What started it: api, schedule or catch-up (a run the schedule"
                                    + " missed while the server was down); null for a job started otherwise") String trigger) {
    }

    @Schema(name = "Executions", description = "The executions of the jobs for one view, newest first")
    public record Executions(String view, List<Execution> executions) {
    }

    @Schema(name = "ExecutionStatus", description = "A job execution with its steps")
    public record ExecutionStatus(long executionId, String jobName, String batchStatus, String exitStatus, String started,
                                  String ended, List<Step> steps) {
    }

    @Schema(name = "Step", description = "A step's counts, and a chunked run's progress")
    public record Step(String name, String batchStatus, long readCount, long writeCount, long commitCount,
                       long rollbackCount, Progress progress,
                       @Schema(description = "mv-rehydrate: each view's refill, once the step ended") List<Refill> refills) {
    }

    @Schema(name = "Refill", description = "One partition of mv-rehydrate: the refill of one materialized view")
    public record Refill(String view,
                         @Schema(description = "Its dependency round: 1 when no source of it was pending") int round,
                         @Schema(description = "ISO-8601 instant the partition began (it then waits for its sources)") String started,
                         @Schema(description = "ISO-8601 instant its refill committed or failed") String ended,
                         long rows,
                         @Schema(description = "refilled, already rehydrated, stopped, or the engine's refusal") String outcome) {
    }

    @Schema(name = "Progress", description = "Where a chunked run stands")
    public record Progress(long chunks,
                           @Schema(description = "The first chunk this execution wrote") long firstChunk,
                           long rowsWritten,
                           @Schema(description = "Rows of the body done") long position,
                           @Schema(description = "Rows of the body in all; -1 before the first chunk") long expected,
                           double percent, double elapsedSeconds, long rowsPerSecond,
                           @Schema(description = "The last key done, as a SQL row literal") String lastKey) {
    }

    @Schema(name = "InDoubtBranches", description = "The transaction branches a server that ended left in doubt")
    public record InDoubtBranches(List<InDoubtBranch> branches) {
    }

    @Schema(name = "InDoubtBranch", description = "One branch left in doubt, or decided by hand")
    public record InDoubtBranch(
            @Schema(description = "formatId:gtrid-hex:bqual-hex") String xid,
            @Schema(description = "in doubt, heuristically committed or heuristically rolled back") String state,
            @Schema(description = "What it wrote") List<String> touched,
            @Schema(description = "ISO-8601 instant; null while in doubt") String decidedAt) {
    }

    @Schema(name = "Status", description = "What an operator watches: the database, its views, locks, branches in doubt")
    public record Status(
            @Schema(description = "OPENING, WAITING_FOR_IN_DOUBT, OPEN, CLOSED or FAILED") String state,
            String detail,
            List<ViewStatus> views,
            @Schema(description = "locks(): transaction, waiting, object, mode, since") List<Map<String, Object>> locks,
            @Schema(description = "in_doubt(): xid, state, touched, decided_at") List<Map<String, Object>> inDoubt,
            @Schema(description = "rehydrate_report(): schema, name, action, reason, index") List<Map<String, Object>> rehydrate) {
    }

    @Schema(name = "ViewStatus", description = "A materialized view and its counters since the database opened")
    public record ViewStatus(String schema, String name, String host, String arm, boolean stale,
                             @Schema(name = "row_count") long rowCount,
                             @Schema(name = "rows_maintained") long rowsMaintained,
                             @Schema(name = "maintenance_seconds") double maintenanceSeconds,
                             long refreshes,
                             @Schema(name = "refresh_seconds") double refreshSeconds,
                             @Schema(name = "refresh_rows") long refreshRows,
                             @Schema(name = "refresh_schedule", description = "Its refresh schedule (cron), null when none")
                             String refreshSchedule,
                             @Schema(name = "next_refresh", description = "ISO-8601 instant the schedule names next")
                             String nextRefresh) {
    }

    @Schema(name = "ScheduleRequest", description = "Sets a materialized view's refresh schedule")
    public record ScheduleRequest(
            @Schema(required = true, description = "A cron expression: 5 fields (minute hour day-of-month month day-of-week)"
                    + " or 6 (second first), as Jakarta Concurrency's CronTrigger reads them") String schedule) {
    }

    @Schema(name = "Schedule", description = "A materialized view's refresh schedule and its runs")
    public record Schedule(String view,
                           @Schema(description = "The cron expression; null when the view has none") String schedule,
                           @Schema(description = "ISO-8601 instant the schedule names next") String nextRefresh,
                           @Schema(description = "ISO-8601 instant the last refresh since the open ended") String lastRefresh,
                           @Schema(description = "completed: N rows changed, or rolled back") String lastRefreshOutcome,
                           @Schema(description = "Its latest mv-refresh execution, from the job repository; absent when none")
                           Execution lastRun) {
    }

    @Schema(name = "Schedules", description = "Every materialized view that has a refresh schedule")
    public record Schedules(List<Schedule> schedules) {
    }

    @Schema(name = "Session", description = "The signed-in user")
    public record Session(String user,
                          @Schema(description = "Whether the user is in role derive-admin and may change things") boolean admin,
                          @Schema(description = "To send as X-CSRF-Token with each change the console makes") String csrfToken) {
    }

    @Schema(name = "RecentExecutions", description = "The latest executions of every job, newest first")
    public record RecentExecutions(List<RecentExecution> executions) {
    }

    @Schema(name = "RecentExecution", description = "An execution with the view it is for and, while running, its progress")
    public record RecentExecution(long executionId, String jobName, String batchStatus, String exitStatus, String started,
                                  String ended,
                                  @Schema(description = "api, schedule or catch-up") String trigger,
                                  @Schema(description = "The view refreshed or verified, or the table attached") String view,
                                  Progress progress) {
    }

    @Schema(name = "Outcome", description = "How an operator decides a branch")
    public record Outcome(@Schema(required = true, enumeration = {"commit", "rollback"}) String outcome) {
    }
}
