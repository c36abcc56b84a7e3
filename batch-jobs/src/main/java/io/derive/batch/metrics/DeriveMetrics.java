package io.derive.batch.metrics;

import io.derive.client.DeriveConnection;
import io.derive.client.DeriveConnectionFactory;
import io.derive.engine.api.DatabaseStatus;
import io.derive.engine.api.Row;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
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

import org.eclipse.microprofile.metrics.Metadata;
import org.eclipse.microprofile.metrics.MetricID;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;

/**
 * Derive's metrics at {@code /metrics} ({@code mpMetrics-5.1}, application scope), gauges over
 * what the engine counts since the database opened:
 * <ul>
 *   <li>per materialized view, tagged {@code schema} and {@code view}:
 *       {@code derive_view_rows}, {@code derive_view_rows_maintained},
 *       {@code derive_view_maintenance_seconds}, {@code derive_view_refreshes},
 *       {@code derive_view_refresh_seconds}, {@code derive_view_refresh_rows},
 *       {@code derive_view_stale} (1 when stale) — from {@code materialized_views()};</li>
 *   <li>for the database: {@code derive_lock_waits}, {@code derive_lock_deadlocks},
 *       {@code derive_lock_timeouts} (from {@code lock_waits()}) and
 *       {@code derive_transactions_open}, {@code derive_transaction_commits},
 *       {@code derive_transaction_rollbacks}, {@code derive_transaction_prepares},
 *       {@code derive_transaction_read_only} (from {@code transaction_counts()}: commits and
 *       rollbacks of transactions that wrote, so these readings, the scheduler's and a console's
 *       polls count as read-only) and {@code derive_statements_reused},
 *       {@code derive_statements_parsed} (from {@code statement_cache()}: statements run by a text
 *       their session kept parsed, or parsed for the run).</li>
 * </ul>
 * The values are read every {@value #PERIOD_SECONDS} seconds, once the database is open, so a
 * scrape never waits for the database; a view's gauges appear at the first reading after it is
 * created and go with the first after it is dropped.
 */
@ApplicationScoped
public class DeriveMetrics {
    static final int PERIOD_SECONDS = 1;
    private static final Logger LOG = System.getLogger(DeriveMetrics.class.getName());
    private static final List<String> VIEW_GAUGES = List.of("rows", "rows_maintained", "maintenance_seconds", "refreshes",
            "refresh_seconds", "refresh_rows", "stale");
    private static final List<String> LOCK_GAUGES = List.of("waits", "deadlocks", "timeouts");
    private static final List<String> TRANSACTION_GAUGES = List.of("open", "commits", "rollbacks", "prepares", "read_only");
    private static final List<String> STATEMENT_GAUGES = List.of("reused", "parsed");

    @Inject
    MetricRegistry registry;

    @Inject
    DeriveConnectionFactory connectionFactory;

    @Resource
    ManagedScheduledExecutorService scheduler;

    /** The last reading: gauge name (with its view's key for a view's) to value. */
    private final Map<String, Number> readings = new ConcurrentHashMap<>();
    private final Set<String> registeredViews = ConcurrentHashMap.newKeySet();
    private ScheduledFuture<?> reading;

    void start(@Observes @Initialized(ApplicationScoped.class) Object started) {
        for (String name : LOCK_GAUGES) {
            gauge("derive_lock_" + name, "lock_waits()." + name, "lock_waits(): " + name + " since the database opened");
        }
        for (String name : TRANSACTION_GAUGES) {
            String metric = name.equals("open") ? "derive_transactions_open" : "derive_transaction_" + name;
            gauge(metric, "transaction_counts()." + name, "transaction_counts(): " + name + " since the database opened");
        }
        for (String name : STATEMENT_GAUGES) {
            gauge("derive_statements_" + name, "statement_cache()." + name,
                    "statement_cache(): statements " + name + " since the database opened");
        }
        reading = scheduler.scheduleWithFixedDelay(this::read, 0, PERIOD_SECONDS, TimeUnit.SECONDS);
    }

    @PreDestroy
    void stop() {
        if (reading != null) {
            reading.cancel(false);
        }
    }

    private void gauge(String metric, String reading, String description, Tag... tags) {
        registry.gauge(Metadata.builder().withName(metric).withDescription(description).build(),
                () -> readings.getOrDefault(reading, 0), tags);
    }

    private void read() {
        if (connectionFactory.status().state() != DatabaseStatus.State.OPEN) {
            return;
        }
        try (DeriveConnection connection = connectionFactory.getConnection()) {
            Row locks = connection.run("select waits, deadlocks, timeouts from lock_waits()").rows().get(0);
            LOCK_GAUGES.forEach(name -> readings.put("lock_waits()." + name, (Number) locks.get(name)));
            Row transactions = connection.run("select open, commits, rollbacks, prepares, read_only from transaction_counts()")
                    .rows().get(0);
            TRANSACTION_GAUGES.forEach(name -> readings.put("transaction_counts()." + name, (Number) transactions.get(name)));
            Row statements = connection.run("select reused, parsed from statement_cache()").rows().get(0);
            STATEMENT_GAUGES.forEach(name -> readings.put("statement_cache()." + name, (Number) statements.get(name)));
            Set<String> present = new HashSet<>();
            for (Row view : connection.run("select schema, name, row_count as rows, rows_maintained, maintenance_seconds,"
                    + " refreshes, refresh_seconds, refresh_rows, case when stale then 1 else 0 end as stale"
                    + " from materialized_views()").rows()) {
                String key = view.get("schema") + "." + view.get("name");
                present.add(key);
                VIEW_GAUGES.forEach(name -> readings.put(key + "." + name, (Number) view.get(name)));
                if (registeredViews.add(key)) {
                    Tag[] tags = {new Tag("schema", (String) view.get("schema")), new Tag("view", (String) view.get("name"))};
                    VIEW_GAUGES.forEach(name -> gauge("derive_view_" + name, key + "." + name,
                            "materialized_views(): " + name, tags));
                }
            }
            for (String gone : Set.copyOf(registeredViews)) {
                if (!present.contains(gone)) {
                    forget(gone);
                }
            }
        } catch (RuntimeException e) {
            // The engine's refusals (DeriveException) too: a reading missed is taken again next period.
            LOG.log(Level.DEBUG, "Derive metrics not read: {0}", e.getMessage());
        }
    }

    private void forget(String view) {
        int dot = view.indexOf('.');
        Tag[] tags = {new Tag("schema", view.substring(0, dot)), new Tag("view", view.substring(dot + 1))};
        VIEW_GAUGES.forEach(name -> {
            registry.remove(new MetricID("derive_view_" + name, tags));
            readings.remove(view + "." + name);
        });
        registeredViews.remove(view);
    }
}
