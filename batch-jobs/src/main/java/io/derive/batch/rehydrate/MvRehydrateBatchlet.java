package io.derive.batch.rehydrate;

import io.derive.client.DeriveConnection;
import io.derive.client.DeriveConnectionFactory;
import io.derive.engine.api.DeriveException;
import io.derive.engine.api.Row;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Instant;

import jakarta.annotation.Resource;
import jakarta.batch.api.AbstractBatchlet;
import jakarta.batch.api.BatchProperty;
import jakarta.batch.runtime.BatchStatus;
import jakarta.batch.runtime.context.StepContext;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import jakarta.inject.Named;

/**
 * One partition of {@code mv-rehydrate}: refills one pending materialized view
 * ({@code rehydrate materialized view s.n}) once none of its sources is pending any more — until
 * then the engine refuses with {@code waits for the rehydrate of its source}, and the partition
 * asks again every {@value #WAIT_MILLIS} ms, ending early when the job is stopped. A view a
 * restart finds refilled already is reported so and counts as done. The record of what it did
 * goes to the step's analyzer ({@link RefillCollector}).
 */
@Named("mvRehydrateBatchlet")
@Dependent
public class MvRehydrateBatchlet extends AbstractBatchlet {
    static final int WAIT_MILLIS = 200;
    private static final Logger LOG = System.getLogger(MvRehydrateBatchlet.class.getName());

    @Inject
    @BatchProperty
    String schema;

    @Inject
    @BatchProperty
    String name;

    @Inject
    @BatchProperty
    String round;

    @Inject
    StepContext stepContext;

    @Resource(lookup = "eis/derive")
    DeriveConnectionFactory connectionFactory;

    private volatile boolean stopping;

    @Override
    public String process() throws InterruptedException {
        if (name == null || name.isEmpty()) {
            return "nothing pending";
        }
        String view = schema + "." + name;
        Instant started = Instant.now();
        LOG.log(Level.INFO, "rehydrate of materialized view {0} (round {1}) started", view, round);
        try (DeriveConnection connection = connectionFactory.getConnection()) {
            while (!stopping) {
                try {
                    Row refilled = connection.run("rehydrate materialized view " + quoted(schema) + "." + quoted(name)).rows().get(0);
                    long rows = ((Number) refilled.get("rows")).longValue();
                    return done(view, started, rows, "refilled");
                } catch (DeriveException e) {
                    if (e.getMessage().contains("is not being rehydrated")) {
                        return done(view, started, 0, "already rehydrated");
                    }
                    if (!e.getMessage().contains("waits for the rehydrate of its source")) {
                        done(view, started, 0, e.getMessage());
                        LOG.log(Level.WARNING, "rehydrate of materialized view {0} failed: {1}", view, e.getMessage());
                        throw e;
                    }
                    Thread.sleep(WAIT_MILLIS);
                }
            }
        }
        done(view, started, 0, "stopped");
        return BatchStatus.STOPPED.name();
    }

    @Override
    public void stop() {
        stopping = true;
    }

    private String done(String view, Instant started, long rows, String outcome) {
        Instant ended = Instant.now();
        stepContext.setTransientUserData(new RefillRecord(view, Integer.parseInt(round), started, ended, rows, outcome));
        LOG.log(Level.INFO, "rehydrate of materialized view {0} ended: {1}, {2} rows", view, outcome, rows);
        return outcome;
    }

    private static String quoted(String identifier) {
        return "\"" + identifier.replace("\"", "\"\"") + "\"";
    }
}
