package io.derive.bench;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;

/**
 * Loads a benchmark's preloaded rows one key at a time, logging every tenth of the way: a setup of
 * 100k rows takes long enough that a silent one looks hung. Small loads, as the tests make, log
 * at debug level only.
 */
final class LoadProgress {
    private static final Logger LOG = System.getLogger(LoadProgress.class.getName());
    private static final int STEPS = 10;
    private static final int LARGE = 10_000;

    /** Writes one row, identified by its key. */
    @FunctionalInterface
    interface RowWriter {
        void write(long key) throws Exception;
    }

    private LoadProgress() {
    }

    /**
     * Calls {@code writer} for the keys {@code 0 .. rows - 1} in order.
     *
     * @param what names the side and table in the log, such as {@code "orders (derby)"}
     */
    static void load(String what, int rows, RowWriter writer) throws Exception {
        Level level = rows >= LARGE ? Level.INFO : Level.DEBUG;
        long started = System.nanoTime();
        int step = Math.max(1, rows / STEPS);
        for (long key = 0; key < rows; key++) {
            writer.write(key);
            long done = key + 1;
            if (done % step == 0 && done < rows) {
                LOG.log(level, "loading {0}: {1} of {2} rows", what, done, rows);
            }
        }
        LOG.log(level, "loaded {0}: {1} rows in {2} ms", what, rows, (System.nanoTime() - started) / 1_000_000);
    }
}
