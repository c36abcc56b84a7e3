package io.derive.batch.schedule;

import io.derive.batch.Identifiers;
import io.derive.batch.JobsResource;
import io.derive.batch.ServerInitiatedJobs;
import io.derive.client.DeriveConnection;
import io.derive.client.DeriveConnectionFactory;
import io.derive.engine.api.DatabaseStatus;
import io.derive.engine.api.RefreshSchedule;
import io.derive.engine.api.Row;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

/**
 * Starts {@code mv-refresh} when a materialized view's refresh schedule (semantics §9) names the
 * time. The schedules are the catalog's ({@code materialized_views().refresh_schedule}), read
 * every {@value #PERIOD_SECONDS} second by the server's default {@link ManagedScheduledExecutorService}
 * from when the application starts, so a schedule set, changed or dropped by any transaction takes
 * effect at its commit, and a restart re-creates every timer from the catalog.
 * <ul>
 *   <li><b>No overlap.</b> A time that comes while a refresh of the view is running (started by
 *       the schedule, the admin API or a restart) is skipped and logged; the engine's refresh
 *       lease refuses a second run even when the job repository does not know of the first (a
 *       killed server's execution).</li>
 *   <li><b>Missed runs.</b> When the application starts, a view whose schedule named a time
 *       between the start of its latest {@code mv-refresh} execution and now is refreshed once at
 *       once (job parameter {@code trigger=catch-up}), however many times it missed; then it
 *       follows its schedule. A view never refreshed by the job, or a schedule set while the
 *       application runs, starts at the schedule's next time.</li>
 * </ul>
 * Each run is an execution of {@code mv-refresh} with {@code trigger=schedule} (or
 * {@code catch-up}), so the job repository keeps the history of runs — start, end, rows, outcome
 * — across restarts. Only views of the {@code main} schema whose names are plain identifiers are
 * scheduled, as the job names views so; another is skipped with a warning.
 */
@ApplicationScoped
public class RefreshScheduler {
    static final int PERIOD_SECONDS = 1;
    private static final Logger LOG = System.getLogger(RefreshScheduler.class.getName());

    /** A view's schedule as last read, and the next time it fires. */
    private record Plan(RefreshSchedule schedule, Instant due, String trigger) {
    }

    @Inject
    DeriveConnectionFactory connectionFactory;

    @Resource
    ManagedScheduledExecutorService executor;

    @Inject
    ServerInitiatedJobs jobs;

    private final Map<String, Plan> plans = new ConcurrentHashMap<>();
    /** Scheduled views whose names the job cannot take, each warned about once. */
    private final Set<String> unschedulable = ConcurrentHashMap.newKeySet();
    /** Whether a reading has found the database open yet: the first applies the missed-run policy. */
    private volatile boolean started;
    private ScheduledFuture<?> ticking;

    void start(@Observes @Initialized(ApplicationScoped.class) Object applicationStarted) {
        ticking = executor.scheduleWithFixedDelay(this::tick, PERIOD_SECONDS, PERIOD_SECONDS, TimeUnit.SECONDS);
    }

    @PreDestroy
    void stop() {
        if (ticking != null) {
            ticking.cancel(false);
        }
    }

    private void tick() {
        if (connectionFactory.status().state() != DatabaseStatus.State.OPEN) {
            return;
        }
        try {
            Map<String, String> schedules = schedules();
            Instant now = Instant.now();
            boolean startup = !started;
            plans.keySet().retainAll(schedules.keySet());
            // Parsed only when it is new or changed: most seconds, every plan stands.
            schedules.forEach((view, text) -> plans.compute(view, (v, plan) -> plan != null && plan.schedule().text().equals(text)
                    ? plan : firstPlan(view, RefreshSchedule.parse(text), now, startup)));
            started = true;
            for (Map.Entry<String, Plan> entry : plans.entrySet()) {
                Plan plan = entry.getValue();
                if (!plan.due().isAfter(now)) {
                    fire(entry.getKey(), plan.trigger());
                    entry.setValue(new Plan(plan.schedule(), plan.schedule().next(now, ZoneId.systemDefault()), "schedule"));
                }
            }
        } catch (RuntimeException e) {
            // The engine's refusals and the batch runtime's too: the schedules are read again next period.
            LOG.log(Level.WARNING, "refresh schedules not read: {0}", e.getMessage());
        }
    }

    /** The refresh schedules of the views the job can take, by lower-case view name, as written. */
    private Map<String, String> schedules() {
        Map<String, String> schedules = new java.util.HashMap<>();
        try (DeriveConnection connection = connectionFactory.getConnection()) {
            for (Row row : connection.run("select name, refresh_schedule from materialized_views()"
                    + " where schema = 'main' and refresh_schedule is not null").rows()) {
                String name = (String) row.get("name");
                if (!Identifiers.isIdentifier(name)) {
                    if (unschedulable.add(name)) {
                        LOG.log(Level.WARNING, "materialized view \"{0}\" has a refresh schedule, but mv-refresh takes only"
                                + " plain identifiers: rename it to run its schedule", name);
                    }
                    continue;
                }
                schedules.put(name.toLowerCase(java.util.Locale.ROOT), (String) row.get("refresh_schedule"));
            }
        }
        return schedules;
    }

    /** The policy for a schedule first seen: a catch-up run at startup when the schedule missed a time, else its next time. */
    private Plan firstPlan(String view, RefreshSchedule schedule, Instant now, boolean startup) {
        if (startup) {
            Optional<Instant> last = jobs.latestStart(JobsResource.MV_REFRESH, view);
            if (last.isPresent() && !schedule.next(last.get(), ZoneId.systemDefault()).isAfter(now)) {
                LOG.log(Level.INFO, "materialized view {0} missed its refresh schedule ''{1}'' since {2}: refreshing it once now",
                        view, schedule.text(), last.get());
                return new Plan(schedule, now, "catch-up");
            }
        }
        return new Plan(schedule, schedule.next(now, ZoneId.systemDefault()), "schedule");
    }

    private void fire(String view, String trigger) {
        Optional<Long> running = jobs.running(JobsResource.MV_REFRESH, view);
        if (running.isPresent()) {
            LOG.log(Level.INFO, "scheduled refresh of materialized view {0} skipped: execution {1} of mv-refresh is still running",
                    view, running.get());
            return;
        }
        Properties parameters = new Properties();
        parameters.setProperty("view", view);
        long execution = jobs.start(JobsResource.MV_REFRESH, parameters, trigger);
        LOG.log(Level.INFO, "materialized view {0}: mv-refresh execution {1} started by its {2}", view, execution,
                trigger.equals("catch-up") ? "missed schedule" : "schedule");
    }
}
