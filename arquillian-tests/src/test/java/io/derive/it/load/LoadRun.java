package io.derive.it.load;

import io.derive.it.Scenarios;
import io.derive.it.server.LibertyServer;

import java.io.IOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A load on the test module's {@code /derive-test/load}: {@code workers} threads, each asking for
 * one transaction at a time from its own {@link WorkerModel}, until it has asked for {@code
 * transactions}, the run is {@linkplain #stop() stopped}, or the time limit passes. A worker
 * counts a transaction committed when it is acknowledged (HTTP 200) or, if its request failed in
 * a planned {@linkplain Outages outage}, when both ledgers hold it after the restart; a
 * transaction in one ledger only is half-committed. Every wait is bounded; only loopback is
 * contacted.
 */
public final class LoadRun {
    private static final Logger LOG = System.getLogger(LoadRun.class.getName());
    /** How long a worker waits for a planned outage to end before it gives up. */
    private static final Duration OUTAGE_TIMEOUT = Duration.ofMinutes(5);
    private static final int LEDGER_ATTEMPTS = 30;
    private static final Duration LEDGER_RETRY = Duration.ofSeconds(1);
    /** DeriveException.LOCK_TIMEOUT. */
    private static final String LOCK_TIMEOUT = "40001";

    /**
     * What to run.
     *
     * @param prefix       the schema's prefix (its tables are {@code <prefix>orders}, …)
     * @param workers      client threads
     * @param transactions transactions each worker asks for at most
     * @param timeLimit    how long the run may last at most
     * @param alsoSecond   whether each transaction also writes its ledger row to jdbc/second
     */
    public record Settings(String prefix, int workers, int transactions, Duration timeLimit, boolean alsoSecond) {
    }

    /**
     * What a run did.
     *
     * @param models          each worker's rows as they must be
     * @param acknowledged    transactions answered HTTP 200
     * @param inDoubt         transactions whose request failed in an outage
     * @param committedInDoubt of those, how many both ledgers hold
     * @param halfCommitted   transactions only one ledger holds
     * @param failures        requests that failed outside an outage, with why
     * @param lockTimeouts    of the failures, how many were lock timeouts
     * @param latencies       each acknowledged request's latency, sorted
     * @param wall            how long the run lasted
     */
    public record Report(List<WorkerModel> models, List<Long> acknowledged, long inDoubt, long committedInDoubt,
                         List<Long> halfCommitted, List<String> failures, long lockTimeouts, long[] latencies, Duration wall) {

        public double throughput() {
            return acknowledged.size() / (wall.toNanos() / 1e9);
        }

        /** The {@code q} quantile of the acknowledged latencies, in milliseconds. */
        public double latencyMillis(double q) {
            if (latencies.length == 0) {
                return Double.NaN;
            }
            return latencies[Math.min(latencies.length - 1, (int) Math.floor(q * latencies.length))] / 1e6;
        }

        @Override
        public String toString() {
            return String.format("%d acknowledged in %.1f s: %.0f tx/s, p50 %.2f ms, p99 %.2f ms; in doubt %d (committed %d),"
                            + " half-committed %d, failures %d (lock timeouts %d)", acknowledged.size(), wall.toMillis() / 1e3,
                    throughput(), latencyMillis(0.5), latencyMillis(0.99), inDoubt, committedInDoubt, halfCommitted.size(),
                    failures.size(), lockTimeouts);
        }
    }

    private final LibertyServer server;
    private final Settings settings;
    private final Outages outages;
    private final AtomicBoolean stopped = new AtomicBoolean();
    private final ConcurrentLinkedQueue<Long> acknowledged = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<Long> halfCommitted = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<long[]> latencies = new ConcurrentLinkedQueue<>();
    private final AtomicLong inDoubt = new AtomicLong();
    private final AtomicLong committedInDoubt = new AtomicLong();
    private final AtomicLong lockTimeouts = new AtomicLong();
    private final List<WorkerModel> models = new ArrayList<>();
    private final List<Future<?>> running = new ArrayList<>();
    private final ExecutorService threads;
    private final long startNanos;
    private final long deadline;

    private LoadRun(LibertyServer server, Settings settings, Outages outages) {
        this.server = server;
        this.settings = settings;
        this.outages = outages;
        this.threads = Executors.newFixedThreadPool(settings.workers());
        this.startNanos = System.nanoTime();
        this.deadline = startNanos + settings.timeLimit().toNanos();
    }

    /** Starts the workers and returns at once. */
    public static LoadRun start(LibertyServer server, Settings settings, Outages outages) {
        LoadRun run = new LoadRun(server, settings, outages);
        for (int w = 0; w < settings.workers(); w++) {
            WorkerModel model = new WorkerModel(w, 7919L * (w + 1));
            run.models.add(model);
            run.running.add(run.threads.submit(() -> run.work(model)));
        }
        return run;
    }

    /** Asks every worker to stop after its current transaction. */
    public void stop() {
        stopped.set(true);
    }

    /**
     * Waits until every worker is done (its count asked, stopped or past the time limit) and
     * answers the report.
     *
     * @throws IllegalStateException when a worker is still busy a minute past the time limit: a hang
     */
    public Report awaitReport() throws InterruptedException {
        long grace = deadline + Duration.ofMinutes(1).toNanos();
        try {
            for (Future<?> worker : running) {
                worker.get(Math.max(1, grace - System.nanoTime()), TimeUnit.NANOSECONDS);
            }
        } catch (TimeoutException e) {
            threads.shutdownNow();
            throw new IllegalStateException("a worker hangs a minute past the time limit of " + settings.timeLimit(), e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("a worker failed", e.getCause());
        } finally {
            threads.shutdown();
        }
        long[] all = latencies.stream().flatMapToLong(Arrays::stream).sorted().toArray();
        Report report = new Report(List.copyOf(models), List.copyOf(acknowledged), inDoubt.get(), committedInDoubt.get(),
                List.copyOf(halfCommitted), List.copyOf(failures), lockTimeouts.get(), all,
                Duration.ofNanos(System.nanoTime() - startNanos));
        LOG.log(Level.INFO, "load {0}: {1}", settings, report);
        return report;
    }

    private void work(WorkerModel model) {
        long[] took = new long[Math.min(settings.transactions(), 1024)];
        int acked = 0;
        try {
            for (int i = 0; i < settings.transactions() && !stopped.get() && System.nanoTime() < deadline; i++) {
                Write w = model.next();
                long start = System.nanoTime();
                HttpResponse<String> answer;
                try {
                    answer = server.get("/derive-test/load?op=transact&p=" + settings.prefix() + "&worker=" + model.worker()
                            + "&second=" + settings.alsoSecond() + w.query());
                } catch (IOException e) {
                    if (!outages.arePlanned()) {
                        failures.add("tx " + w.tx() + ": " + e);
                    } else {
                        settleInDoubt(model, w);
                    }
                    continue;
                }
                if (answer.statusCode() == 200) {
                    if (acked == took.length) {
                        took = Arrays.copyOf(took, 2 * acked);
                    }
                    took[acked++] = System.nanoTime() - start;
                    model.committed(w);
                    acknowledged.add(w.tx());
                } else {
                    if (answer.body().contains(LOCK_TIMEOUT)) {
                        lockTimeouts.incrementAndGet();
                    }
                    failures.add("tx " + w.tx() + " " + w.kind() + ": HTTP " + answer.statusCode() + " " + answer.body().strip());
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failures.add("worker " + model.worker() + " interrupted");
        } finally {
            latencies.add(Arrays.copyOf(took, acked));
        }
    }

    /** A request failed in an outage: once the server is up, the ledgers say whether {@code w} committed. */
    private void settleInDoubt(WorkerModel model, Write w) throws InterruptedException {
        inDoubt.incrementAndGet();
        for (int attempt = 0; attempt < LEDGER_ATTEMPTS; attempt++) {
            if (!outages.awaitUp(OUTAGE_TIMEOUT)) {
                failures.add("tx " + w.tx() + ": the server was not up again within " + OUTAGE_TIMEOUT);
                return;
            }
            String[] held = ledgered(w.tx());
            if (held != null) {
                boolean inDerive = held[0].equals("1");
                boolean inSecond = held[1].equals("1") || !settings.alsoSecond();
                if (inDerive && inSecond) {
                    model.committed(w);
                    committedInDoubt.incrementAndGet();
                } else if (inDerive || held[1].equals("1")) {
                    halfCommitted.add(w.tx());
                }
                return;
            }
            Thread.sleep(LEDGER_RETRY.toMillis());
        }
        failures.add("tx " + w.tx() + ": the ledgers did not answer in " + LEDGER_ATTEMPTS + " attempts");
    }

    /** {@code {derive, second}} of the ledgers, each "0" or "1"; null when they did not answer. */
    private String[] ledgered(long tx) {
        try {
            HttpResponse<String> answer = server.get("/derive-test/load?op=ledgered&p=" + settings.prefix() + "&tx=" + tx);
            if (answer.statusCode() != 200) {
                LOG.log(Level.INFO, "ledgers of tx {0} did not answer yet: {1}", tx, answer.body().strip());
                return null;
            }
            Map<String, String> held = Scenarios.answer(answer.body());
            String derive = held.get("derive");
            String second = held.get("second");
            return derive == null || second == null ? null : new String[] {derive, second};
        } catch (IOException e) {
            return null;
        }
    }
}
