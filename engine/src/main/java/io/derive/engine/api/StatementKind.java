package io.derive.engine.api;

/**
 * What kind of statement produced a {@link Result}, decided by the engine from the statement it
 * ran, so that a caller can report the outcome ("3 rows inserted") without parsing the SQL
 * again. It says what the statement was, not what it happened to change: an update that matched
 * no row is still {@link #UPDATE}, a {@code create table if not exists} of an existing table is
 * still {@link #DDL}.
 */
public enum StatementKind {
    /** A query ({@code select}, {@code with} or {@code values}): the rows it read. */
    QUERY,
    /** {@code explain}: one row per line of the plan, in a column named {@code plan}. */
    EXPLAIN,
    /**
     * An {@code insert}, with any conflict clause, written to a table or through a materialized
     * view to its source. The count is the rows it wrote: those inserted, plus those an upsert's
     * {@code do update} changed instead; rows skipped by {@code or ignore} or {@code do nothing}
     * are not counted, nor rows {@code or replace} deleted to make room.
     */
    INSERT,
    /** An {@code update}, of a table or through a materialized view: the count is the rows it changed. */
    UPDATE,
    /** A {@code delete}, from a table or through a materialized view: the count is the rows it removed. */
    DELETE,
    /**
     * A change of the schema: {@code create}, {@code alter} or {@code drop} of a table, view,
     * materialized view, maintained table or index. No rows, a count of 0.
     */
    DDL,
    /**
     * {@code refresh materialized view}: no rows, a count of 0 (the view's rows are not counted).
     * A step of a chunked run answers one row: {@code start} (columns {@code run}, {@code shadow},
     * {@code rows} already in the shadow, {@code resumed} 1 or 0), {@code continue}
     * ({@code written}, {@code position} in the body's rows, {@code expected} rows in all,
     * {@code last_key}, {@code done} 1 or 0), {@code finish} ({@code changed}: the rows the final
     * diff changed, {@code swapped} 1 when the view took the shadow's storage); {@code cancel} none.
     * {@code rehydrate materialized view} answers one row: {@code rows} (the rows the view holds
     * after its refill) and {@code changed} (the backing rows the refill rewrote).
     */
    REFRESH,
    /**
     * {@code verify materialized view}: one row per key where the view and a fresh evaluation of
     * its body disagree (columns {@code drift}, {@code key}, {@code stored}, {@code expected}); the
     * count is those rows, also when {@code repair} rewrote them.
     */
    VERIFY,
    /** {@code analyze}: no rows, a count of 0; the statistics it gathered are read with {@code statistics()}. */
    ANALYZE,
    /** A {@code pragma}: one row with the value when it reads one, no rows when it sets one. */
    PRAGMA,
    /**
     * Transaction control: {@code begin}, {@code commit}, {@code rollback}, {@code savepoint},
     * {@code release} and {@code rollback to}. No rows, a count of 0.
     */
    TRANSACTION
}
