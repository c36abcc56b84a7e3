package io.derive.cli.slt;

import java.util.List;

/**
 * One record of a sqllogictest file: a statement or query to check, or a control record
 * ({@code hash-threshold}, {@code halt}). {@code line} is the 1-based line the record starts on;
 * {@code conditions} are the {@code skipif}/{@code onlyif} lines before it.
 */
sealed interface SltRecord {
    int line();

    List<Condition> conditions();

    /** {@code skipif ENGINE} ({@code only == false}) or {@code onlyif ENGINE}. */
    record Condition(boolean only, String engine) {
        /** Whether a record under this condition runs on the engine named {@code self}. */
        boolean admits(String self) {
            return only == engine.equalsIgnoreCase(self);
        }
    }

    /** {@code statement ok} or {@code statement error}: the SQL must succeed, or must fail. */
    record Statement(int line, List<Condition> conditions, boolean expectError, String sql) implements SltRecord {
    }

    /**
     * {@code query TYPES SORT [LABEL]}: the SQL's result, formatted by {@code types} (one letter a
     * column) and sorted by {@code sort}, must equal {@code expected}.
     */
    record Query(int line, List<Condition> conditions, String types, SortMode sort, String label, String sql,
                 ExpectedResult expected) implements SltRecord {
    }

    /** {@code hash-threshold N}: results of more than N values are compared by their hash. */
    record HashThreshold(int line, List<Condition> conditions, int threshold) implements SltRecord {
    }

    /** {@code halt}: the rest of the file is not run. */
    record Halt(int line, List<Condition> conditions) implements SltRecord {
    }
}
