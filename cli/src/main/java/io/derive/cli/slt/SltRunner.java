package io.derive.cli.slt;

import io.derive.cli.HostName;
import io.derive.engine.DatabaseConfig;
import io.derive.engine.Derive;
import io.derive.engine.api.Database;
import io.derive.engine.api.Session;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs sqllogictest files, each against a fresh in-memory database whose tables are on one host
 * ({@code memory} or {@code derby}), as the engine named
 * {@value #ENGINE_NAME} (our dialect follows SQLite's): {@code onlyif sqlite} records run and
 * {@code skipif sqlite} records are skipped. A record that runs longer than the time limit fails,
 * and as the engine cannot be stopped mid-statement, the file's later records fail with it.
 * The runner never alters a record's SQL or expected result.
 */
public final class SltRunner {
    /** The name our engine answers to in {@code skipif}/{@code onlyif} conditions. */
    public static final String ENGINE_NAME = "sqlite";

    private static final System.Logger LOG = System.getLogger(SltRunner.class.getName());
    private static final AtomicInteger DATABASES = new AtomicInteger();

    private final Duration recordTimeLimit;
    private final HostName host;

    /** A runner whose databases keep their tables on {@code host}. */
    public SltRunner(Duration recordTimeLimit, HostName host) {
        this.recordTimeLimit = recordTimeLimit;
        this.host = host;
    }

    /**
     * Runs the records of {@code file}, naming it {@code name} in the result and in messages.
     *
     * @throws IOException when the file cannot be read
     * @throws SltFormatException when the file is not a sqllogictest file
     */
    public FileResult run(Path file, String name) throws IOException {
        List<SltRecord> records = SltParser.parse(name, Files.readString(file));
        ExecutorService worker = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "slt " + name);
            t.setDaemon(true);
            return t;
        });
        Database database = Derive.open(DatabaseConfig.named("slt-" + DATABASES.incrementAndGet())
                .withDefaultHost(host.label()));
        Session session = database.openSession();
        Tally tally = new Tally(name);
        boolean stuck = false;
        try {
            RecordCheck check = new RecordCheck(session);
            TriggerExclusion exclusion = new TriggerExclusion();
            for (SltRecord record : records) {
                boolean admitted = record.conditions().stream().allMatch(c -> c.admits(ENGINE_NAME));
                if (record instanceof SltRecord.Halt) {
                    if (admitted) {
                        break;
                    }
                } else if (record instanceof SltRecord.HashThreshold h) {
                    check.hashThreshold(h.threshold());
                } else if (stuck) {
                    tally.failed(record, "not run: an earlier record ran over the time limit");
                } else if (!admitted || exclusion.skips(sql(record))) {
                    tally.skipped++;
                } else {
                    Future<String> outcome = worker.submit(() -> check.check(record));
                    try {
                        String failure = outcome.get(recordTimeLimit.toMillis(), TimeUnit.MILLISECONDS);
                        if (failure == null) {
                            tally.passed++;
                        } else {
                            tally.failed(record, failure);
                        }
                    } catch (TimeoutException e) {
                        outcome.cancel(true);
                        stuck = true;
                        tally.failed(record, "ran over the time limit of " + recordTimeLimit.toSeconds() + " s");
                    } catch (ExecutionException e) {
                        tally.failed(record, "the runner failed: " + e.getCause());
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException("interrupted while running " + name, e);
                    }
                }
            }
        } finally {
            worker.shutdownNow();
            // A stuck statement still holds the session; closing under it could block this thread too.
            if (!stuck) {
                session.close();
                database.close();
            }
        }
        FileResult result = tally.result();
        LOG.log(System.Logger.Level.INFO, result.summary());
        return result;
    }

    private static String sql(SltRecord record) {
        return record instanceof SltRecord.Statement s ? s.sql() : ((SltRecord.Query) record).sql();
    }

    /** The counts of one file as it runs. */
    private static final class Tally {
        private final String file;
        private final List<String> failures = new ArrayList<>();
        private int passed;
        private int skipped;

        Tally(String file) {
            this.file = file;
        }

        void failed(SltRecord record, String why) {
            String sql = sql(record);
            failures.add(file + ":" + record.line() + ": " + why + "\n    " + sql.replace("\n", "\n    "));
        }

        FileResult result() {
            return new FileResult(file, passed + failures.size(), passed, failures.size(), skipped, failures);
        }
    }
}
