package io.derive.engine.plan.functions;

import java.util.function.Supplier;

/**
 * The current time as a statement sees it. SQLite reads the clock once per statement, so every
 * {@code 'now'}, {@code date()}, {@code current_timestamp} … within one statement is the same
 * instant, however many rows it evaluates them for; the date functions read it here. A statement
 * runs on one thread from start to end (its results are read before it returns), so the instant
 * is the thread's while {@link #during} runs the statement.
 */
public final class StatementClock {
    /**
     * Per thread: whether a statement runs ({@link #RUNNING} 1), whether it has read the clock
     * ({@link #READ} 1) and the instant it read ({@link #INSTANT}). Kept for the thread's life
     * rather than set and removed per statement, which made a map entry and a weak reference
     * each time; a {@code long[]}, so that a container's pooled threads pin no class of ours.
     */
    private static final ThreadLocal<long[]> CURRENT = ThreadLocal.withInitial(() -> new long[3]);
    private static final int RUNNING = 0;
    private static final int READ = 1;
    private static final int INSTANT = 2;

    private StatementClock() {
    }

    /**
     * Runs one statement, every clock reading in it giving the instant of the first. A statement
     * run while another is running on the thread (maintenance a write causes) belongs to that one
     * and shares its instant.
     */
    public static <T> T during(Supplier<T> statement) {
        long[] current = CURRENT.get();
        if (current[RUNNING] == 1) {
            return statement.get();
        }
        current[RUNNING] = 1;
        current[READ] = 0;
        try {
            return statement.get();
        } finally {
            current[RUNNING] = 0;
        }
    }

    /** Epoch milliseconds now: the running statement's instant, or the clock outside any statement. */
    static long epochMillis() {
        long[] current = CURRENT.get();
        if (current[RUNNING] == 0) {
            return System.currentTimeMillis();
        }
        if (current[READ] == 0) {
            current[INSTANT] = System.currentTimeMillis();
            current[READ] = 1;
        }
        return current[INSTANT];
    }
}
