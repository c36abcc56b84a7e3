package io.derive.engine.api;

import java.util.List;
import java.util.Objects;

/**
 * What a statement produced: the rows of a query (or of {@code returning}), or the number of rows
 * a write changed. A statement of any other kind reports no rows, except a {@code pragma} that
 * reads a value, and a count of 0.
 *
 * @param kind        what the statement was; never null. Rows and count are read by it: a write
 *                    with {@code returning} has both, and its count equals its number of rows
 * @param columns     the output column names, empty for a statement without rows
 * @param rows        the rows, fully materialized (the session may run other statements at once)
 * @param updateCount rows changed by an {@link StatementKind#INSERT insert}, {@link StatementKind#UPDATE
 *                    update} or {@link StatementKind#DELETE delete} in the table it names (or whose
 *                    view it names), not those changed by cascades or view maintenance; 0 otherwise
 */
public record Result(StatementKind kind, List<String> columns, List<Row> rows, long updateCount) {

    public Result {
        Objects.requireNonNull(kind, "kind");
        columns = List.copyOf(columns);
        rows = List.copyOf(rows);
    }

    /** A write's outcome without {@code returning}: no rows, {@code updateCount} changed. */
    public static Result ofCount(StatementKind kind, long updateCount) {
        return new Result(kind, List.of(), List.of(), updateCount);
    }

    /** The outcome of a statement that reports neither rows nor a count, such as DDL. */
    public static Result empty(StatementKind kind) {
        return ofCount(kind, 0);
    }
}
