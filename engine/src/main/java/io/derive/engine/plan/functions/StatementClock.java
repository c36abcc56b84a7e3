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
    /** The running statement's instant in epoch milliseconds, {@code null} until the statement first reads it. */
    private static final ThreadLocal<Long[]> CURRENT = new ThreadLocal<>();

    private StatementClock() {
    }

    /**
     * Runs one statement, every clock reading in it giving the instant of the first. A statement
     * run while another is running on the thread (maintenance a write causes) belongs to that one
     * and shares its instant.
     */
    public static <T> T during(Supplier<T> statement) {
        if (CURRENT.get() != null) {
            return statement.get();
        }
        CURRENT.set(new Long[1]);
        try {
            return statement.get();
        } finally {
            CURRENT.remove();
        }
    }

    /** Epoch milliseconds now: the running statement's instant, or the clock outside any statement. */
    static long epochMillis() {
        Long[] instant = CURRENT.get();
        if (instant == null) {
            return System.currentTimeMillis();
        }
        if (instant[0] == null) {
            instant[0] = System.currentTimeMillis();
        }
        return instant[0];
    }
}
