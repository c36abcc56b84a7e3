package io.derive.engine.api;

import java.util.List;

/**
 * What a statement produced: the rows of a query (or of {@code returning}), or the number of rows
 * a write changed. A DDL or transaction-control statement reports no rows and a count of 0.
 *
 * @param columns     the output column names, empty for a statement without rows
 * @param rows        the rows, fully materialized (the session may run other statements at once)
 * @param updateCount rows inserted, updated or deleted by a write; 0 otherwise
 */
public record Result(List<String> columns, List<Row> rows, long updateCount) {

    public Result {
        columns = List.copyOf(columns);
        rows = List.copyOf(rows);
    }

    public static Result ofCount(long updateCount) {
        return new Result(List.of(), List.of(), updateCount);
    }

    public static Result empty() {
        return ofCount(0);
    }
}
