package io.derive.batch.rehydrate;

import io.derive.batch.JobsResource;
import io.derive.batch.ServerInitiatedJobs;
import io.derive.client.DeriveConnectionFactory;
import io.derive.engine.api.DatabaseStatus;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.Properties;
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
 * Starts {@code mv-rehydrate} (job parameter {@code trigger=startup}) once the database is open
 * and its open left materialized views pending — with the resource adapter's
 * {@code rehydrateMode="batch"} — unless an execution of it is running already. It looks once a
 * second until the database is open, then stops looking.
 *
 * <p>Test-only: the system property {@value #TEST_DELAY} delays the start by that many seconds
 * (unset: none), so a test can watch the pending views before any is refilled.
 */
@ApplicationScoped
public class RehydrateAtStartup {
    static final String TEST_DELAY = "derive.test.rehydrateJobDelaySeconds";
    private static final Logger LOG = System.getLogger(RehydrateAtStartup.class.getName());

    @Inject
    DeriveConnectionFactory connectionFactory;

    @Inject
    ServerInitiatedJobs jobs;

    @Resource
    ManagedScheduledExecutorService executor;

    private volatile ScheduledFuture<?> waiting;

    void start(@Observes @Initialized(ApplicationScoped.class) Object applicationStarted) {
        waiting = executor.scheduleWithFixedDelay(this::startOnceOpen, 0, 1, TimeUnit.SECONDS);
    }

    @PreDestroy
    void stop() {
        if (waiting != null) {
            waiting.cancel(false);
        }
    }

    private void startOnceOpen() {
        DatabaseStatus status = connectionFactory.status();
        if (status.state() == DatabaseStatus.State.FAILED || status.state() == DatabaseStatus.State.CLOSED) {
            waiting.cancel(false);
            return;
        }
        if (status.state() != DatabaseStatus.State.OPEN) {
            return;
        }
        waiting.cancel(false);
        if (status.pendingRehydrates() == 0) {
            return;
        }
        LOG.log(Level.INFO, "{0} materialized views are being rehydrated: starting mv-rehydrate", status.pendingRehydrates());
        executor.schedule(this::startJob, Integer.getInteger(TEST_DELAY, 0), TimeUnit.SECONDS);
    }

    private void startJob() {
        try {
            if (jobs.running(JobsResource.MV_REHYDRATE, null).isEmpty()) {
                long execution = jobs.start(JobsResource.MV_REHYDRATE, new Properties(), "startup");
                LOG.log(Level.INFO, "mv-rehydrate execution {0} started", execution);
            }
        } catch (RuntimeException e) {
            LOG.log(Level.ERROR, "mv-rehydrate could not be started: {0}; start it with POST /api/jobs/mv-rehydrate", e.getMessage());
        }
    }
}
