package io.derive.engine.exec.query;

import java.util.concurrent.atomic.LongAdder;

/**
 * How often one database's sessions ran a statement by its text since the database opened:
 * reusing a text the session kept parsed, or parsing it (a first run, a text given up for newer
 * ones, or every run where sessions keep none). Shown by {@code statement_cache()}, so that an
 * operator can tell whether {@code statementCacheSize} holds the texts an application runs.
 * Prepared statements count in neither.
 */
public final class StatementTextCounters {
    private final LongAdder reused = new LongAdder();
    private final LongAdder parsed = new LongAdder();

    public void reused() {
        reused.increment();
    }

    public void parsed() {
        parsed.increment();
    }

    public long reusedCount() {
        return reused.sum();
    }

    public long parsedCount() {
        return parsed.sum();
    }
}
