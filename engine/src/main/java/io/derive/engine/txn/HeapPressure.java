package io.derive.engine.txn;

import io.derive.engine.api.DeriveException;

import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;
import javax.management.openmbean.TabularData;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

/**
 * How full the heap was after the latest garbage collection, and the limit over which a
 * statement stops. A statement that keeps adding to what it holds in memory — an unbounded
 * recursive common table, a {@code generate_series} over billions, every row of a huge join as
 * its result — would otherwise run the JVM out of memory: in an application server, every other
 * application with it, and whichever thread allocates next gets the error. Instead, once a
 * collection leaves the heap over the limit, each statement that reads or writes a row stops at
 * its next one with {@link DeriveException#OUT_OF_MEMORY} ({@link #check}). About one statement
 * is stopped per reading: stopped and rolled back, it frees what it held, so the statements
 * after it run until a collection that started after it let go ({@link #released}) measures
 * again (and stops the next, if the heap is still over the limit). A collection that started
 * earlier, while the stopped statement was still unwinding, counted its rows as live: its
 * reading is spent.
 *
 * <p>The fill is what the JVM reports with each collection (its garbage-collection
 * notifications, which HotSpot's G1, parallel and serial collectors send), so it costs statements one
 * volatile read per row. The notifications arrive on a JVM thread a moment after the collection,
 * so a statement that fills a small heap faster than that may still run out of memory: the
 * session then reports that as the same error ({@code EngineSession}).
 *
 * <p>The limit is the fraction of the maximum heap given by the system property
 * {@value #LIMIT_PROPERTY} (default {@value #DEFAULT_LIMIT}); {@code 1} turns the stop off.
 */
public final class HeapPressure implements AutoCloseable {
    /** The system property that sets the limit, a fraction of the maximum heap above 0 and at most 1. */
    public static final String LIMIT_PROPERTY = "derive.statementHeapLimit";
    static final double DEFAULT_LIMIT = 0.9;
    private static final System.Logger LOG = System.getLogger(HeapPressure.class.getName());
    /** The type of the notifications HotSpot's collectors send at the end of each collection. */
    private static final String COLLECTION_ENDED = "com.sun.management.gc.notification";

    // Facts of the JVM, read once rather than at every database's open.
    /** The heap's pools: a collection reports every pool it manages, the non-heap ones (metaspace, code) too. */
    private static final List<MemoryPoolMXBean> HEAP_POOLS = ManagementFactory.getMemoryPoolMXBeans().stream()
            .filter(pool -> pool.getType() == MemoryType.HEAP).toList();
    private static final Set<String> HEAP_POOL_NAMES = HEAP_POOLS.stream().map(MemoryPoolMXBean::getName)
            .collect(Collectors.toSet());
    /**
     * The heap pool with the largest maximum, the old generation, where what a statement holds
     * ends up. Where it cannot grow to the whole heap (HotSpot's parallel and serial
     * collectors), the heap can be full while the whole is still well under the
     * limit, collections following each other; so after a collection of the old generation its
     * own fill counts too. (After a young one it may still hold garbage, and does not.)
     */
    private static final String OLD_GENERATION = HEAP_POOLS.stream()
            .max(Comparator.comparingLong(pool -> pool.getUsage().getMax())).map(MemoryPoolMXBean::getName).orElse("");
    private static final long MAX_HEAP = Runtime.getRuntime().maxMemory();
    private static final List<GarbageCollectorMXBean> COLLECTORS = ManagementFactory.getGarbageCollectorMXBeans();

    private final double limit;
    private final List<NotificationEmitter> watched = new ArrayList<>();
    /** Statements stopped that have not let go of their rows yet: while there are any, readings are spent. */
    private final AtomicInteger unwinding = new AtomicInteger();
    /**
     * When (milliseconds of JVM uptime, the clock of a collection's start) the latest stopped
     * statement let go of its rows: readings of collections that started before are spent.
     */
    private volatile long spentUntil = -1;
    private final NotificationListener listener = this::collected;
    /**
     * How full the latest collection left the heap: the fraction of the maximum heap in use, or
     * after a collection of the old generation that generation's own fill, whichever is higher.
     */
    private volatile double fill;

    HeapPressure(double limit) {
        this.limit = limit;
    }

    /** Never stops a statement: for a transaction of no database (a unit test's). */
    static HeapPressure none() {
        return new HeapPressure(1);
    }

    /**
     * Starts watching collections with the limit {@value #LIMIT_PROPERTY} gives; {@link #close}
     * stops it (a listener left on the JVM's beans would keep the classes of an undeployed
     * resource adapter loaded).
     *
     * @throws DeriveException {@link DeriveException#DATA} when the property is not a number in (0, 1]
     */
    public static HeapPressure watch() {
        HeapPressure pressure = new HeapPressure(limit(System.getProperty(LIMIT_PROPERTY)));
        if (pressure.limit < 1 && MAX_HEAP != Long.MAX_VALUE) {
            for (GarbageCollectorMXBean collector : COLLECTORS) {
                if (collector instanceof NotificationEmitter emitter) {
                    emitter.addNotificationListener(pressure.listener, null, null);
                    pressure.watched.add(emitter);
                }
            }
        }
        return pressure;
    }

    static double limit(String property) {
        if (property == null) {
            return DEFAULT_LIMIT;
        }
        try {
            double limit = Double.parseDouble(property.trim());
            if (limit > 0 && limit <= 1) {
                return limit;
            }
        } catch (NumberFormatException e) {
            // reported below, as a value out of range is
        }
        throw new DeriveException(DeriveException.DATA, "system property " + LIMIT_PROPERTY
                + " must be a fraction of the heap above 0 and at most 1, but is '" + property + "'");
    }

    /**
     * Stops a statement of {@code transaction} when the latest collection left the heap over the
     * limit, once per collection. A statement stopped must be {@linkplain #released released} once
     * it has let go of what it held.
     *
     * @throws DeriveException {@link DeriveException#OUT_OF_MEMORY} when the latest collection left the heap over the limit
     */
    void check(String transaction) {
        double now = fill;
        if (now >= limit) {
            unwinding.incrementAndGet();
            fill = 0;
            throw new DeriveException(DeriveException.OUT_OF_MEMORY, String.format(Locale.ROOT,
                    "the statement of %s was stopped: the heap is %.0f%% full after garbage collection, over the"
                            + " limit of %.0f%% (system property %s); a statement that holds fewer rows at once"
                            + " (a limit, a narrower where clause) can run", transaction, now * 100, limit * 100,
                    LIMIT_PROPERTY));
        }
    }

    /**
     * A statement {@link #check} stopped has let go of its rows (its statement or transaction
     * ended): from collections that start after now, readings count again.
     */
    void released() {
        spentUntil = ManagementFactory.getRuntimeMXBean().getUptime();
        unwinding.decrementAndGet();
    }

    /**
     * A collection's reading.
     *
     * @param startedAt when the collection started, in milliseconds of JVM uptime
     * @param reading   the fraction of the heap in use after it, or the old generation's own when that is higher
     */
    void measured(long startedAt, double reading) {
        if (unwinding.get() > 0 || startedAt <= spentUntil) {
            return;
        }
        double before = fill;
        fill = reading;
        if (before < limit && reading >= limit) {
            LOG.log(System.Logger.Level.WARNING, String.format(Locale.ROOT, "the heap is %.0f%% full after garbage"
                    + " collection: statements stop until it is below %.0f%% (%s)", reading * 100, limit * 100, LIMIT_PROPERTY));
        }
    }

    private void collected(Notification notification, Object handback) {
        if (!COLLECTION_ENDED.equals(notification.getType())
                || !(notification.getUserData() instanceof CompositeData info)
                || !(info.get("gcInfo") instanceof CompositeData gc)
                || !(gc.get("startTime") instanceof Long startedAt)
                || !(gc.get("memoryUsageAfterGc") instanceof TabularData pools)) {
            return;
        }
        long used = 0;
        double oldest = 0;
        boolean major = info.get("gcAction") instanceof String action && (action.contains("major") || action.contains("global"));
        for (Object row : pools.values()) {
            if (row instanceof CompositeData entry && entry.get("key") instanceof String pool && HEAP_POOL_NAMES.contains(pool)
                    && entry.get("value") instanceof CompositeData value) {
                MemoryUsage usage = MemoryUsage.from(value);
                used += usage.getUsed();
                if (major && pool.equals(OLD_GENERATION) && usage.getMax() > 0) {
                    oldest = (double) usage.getUsed() / usage.getMax();
                }
            }
        }
        measured(startedAt, Math.max((double) used / MAX_HEAP, oldest));
    }

    @Override
    public void close() {
        for (NotificationEmitter emitter : watched) {
            try {
                emitter.removeNotificationListener(listener);
            } catch (ListenerNotFoundException e) {
                // already gone: nothing to release
            }
        }
        watched.clear();
    }
}
