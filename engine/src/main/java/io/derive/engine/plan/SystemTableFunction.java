package io.derive.engine.plan;

import io.derive.engine.types.Collation;
import io.derive.engine.types.SqlType;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The table-valued functions the engine itself provides in {@code from}: introspection and
 * {@code generate_series}. The planner knows their columns and arity;
 * {@link io.derive.engine.exec.query.SystemTables} produces their rows.
 */
public enum SystemTableFunction {
    /**
     * One row per materialized view: {@code schema, name, host, arm, stale, row_count,
     * body_evaluations} (the number of full evaluations of its body since it was created),
     * {@code tags} (its tags as JSON object text, {@code {}} when it has none), {@code covers} (the
     * unique constraints it covers as {@code t(a, b)}, null when none; a stale MV covers nothing),
     * {@code unique_probes} and {@code probe_rows_read} (the conflict checks it answered as a
     * covering structure, and the backing rows they read), {@code rows_maintained} and
     * {@code maintenance_seconds} (the backing rows its maintenance changed, and the time that
     * took, its cascade to other views not included), {@code refreshes}, {@code refresh_seconds}
     * and {@code refresh_rows} (its refreshes, their time and the rows their diffs changed). The
     * counters are observations since the database opened: rolled-back work counts too. Then
     * {@code refresh_schedule} (its schedule as written, null when none), {@code next_refresh}
     * (the next time the schedule names after now, in the server's time zone, as an ISO-8601
     * instant; null without a schedule), {@code last_refresh} and {@code last_refresh_outcome}
     * (when the last refresh since the open ended, and {@code completed: N rows changed} or
     * {@code rolled back}; null before the first).
     */
    MATERIALIZED_VIEWS(List.of(
            text("schema"), text("name"), text("host"), text("arm"),
            new OutputColumn("stale", SqlType.BOOLEAN, Collation.BINARY, true),
            integer("row_count"), integer("body_evaluations"), text("tags"), text("covers"),
            integer("unique_probes"), integer("probe_rows_read"), integer("rows_maintained"),
            real("maintenance_seconds"), integer("refreshes"), real("refresh_seconds"), integer("refresh_rows"),
            text("refresh_schedule"), text("next_refresh"), text("last_refresh"), text("last_refresh_outcome"))),

    /**
     * {@code statistics()}: one row per table (materialized views included) that {@code analyze}
     * has analyzed: {@code schema, name, row_count} (the count it found, not kept current by
     * later writes).
     */
    STATISTICS(List.of(text("schema"), text("name"),
            new OutputColumn("row_count", SqlType.INTEGER, Collation.BINARY, false))),

    /**
     * {@code schema()}: one row per table, view, materialized view and (non-constraint) index:
     * {@code type} ('table', 'view', 'materialized_view', 'index'), {@code schema}, {@code name},
     * {@code sql} (canonical DDL) and {@code tags} (a table's, view's or materialized view's tags
     * as JSON object text, each value JSON of its type, {@code {}} when it has none; null for an
     * index).
     */
    SCHEMA(List.of(text("type"), text("schema"), text("name"), text("sql"), text("tags"))),

    /**
     * {@code table_info('t' [, 'schema'])}: one row per declared column of a table, as SQLite's
     * {@code pragma table_info}: {@code cid, name, type, notnull, dflt_value, pk} (pk is the
     * column's 1-based position in the primary key, 0 when it is not part of it).
     */
    TABLE_INFO(1, 2, List.of(integer("cid"), text("name"), text("type"),
            new OutputColumn("notnull", SqlType.INTEGER, Collation.BINARY, true), text("dflt_value"),
            new OutputColumn("pk", SqlType.INTEGER, Collation.BINARY, true))),

    /**
     * {@code rehydrate_report()}: what the open of a durable database did: one row per
     * materialized view, {@code schema, name, action} ('adopted', 'refilled', 'failed') and
     * {@code reason} (null when adopted); then one row per table whose rows it counted (action
     * 'counted') and per index it built (action 'rebuilt', {@code name} its table, {@code index}
     * the index), each with its reason; a view, table or index that waits for an in-doubt
     * transaction has action 'waiting' and its reason names the transaction and what it wrote,
     * until the transaction is decided; a view a deferred rehydrate left pending has action
     * 'pending' until {@code rehydrate materialized view} has refilled it, then 'refilled'; no
     * rows for a database that is not durable.
     */
    REHYDRATE_REPORT(List.of(text("schema"), text("name"), text("action"), text("reason"), text("index"))),

    /**
     * {@code rehydrate_pending()}: one row per materialized view a deferred rehydrate left to be
     * refilled by {@code rehydrate materialized view} and not refilled yet, in the order to refill
     * them: {@code schema}, {@code name}, {@code round} (1 when none of its sources is pending,
     * else one more than the highest round of those: the views of one round may be refilled side
     * by side once every earlier round is), {@code reason} (why it could not be adopted, as
     * {@code rehydrate_report()} says it) and {@code refilling} (whether a refill of it is running).
     */
    REHYDRATE_PENDING(List.of(text("schema"), text("name"),
            new OutputColumn("round", SqlType.INTEGER, Collation.BINARY, true), text("reason"),
            new OutputColumn("refilling", SqlType.BOOLEAN, Collation.BINARY, true))),

    /**
     * {@code in_doubt()}: one row per transaction branch a process that ended left prepared on a
     * durable database, undecided or decided by an operator and not yet forgotten
     * ({@link io.derive.engine.api.Database#inDoubtBranches()}): {@code xid}
     * ({@code formatId:gtrid-hex:bqual-hex}), {@code state} ('in doubt', 'heuristically
     * committed', 'heuristically rolled back'), {@code touched} (what it wrote, comma-separated)
     * and {@code decided_at} (an ISO-8601 instant; null while in doubt).
     */
    IN_DOUBT(List.of(text("xid"), text("state"), text("touched"), text("decided_at"))),

    /**
     * {@code verify_report()}: one row per materialized view verified since the database opened,
     * its last {@code verify materialized view}: {@code schema}, {@code name}, {@code verified_at}
     * (an ISO-8601 instant), the drifted keys by kind ({@code missing}, {@code extra},
     * {@code differs}), {@code repaired} (whether that statement rewrote them), {@code sample}
     * (the first drifted keys, {@code kind key; …}) and {@code key_range} (the statement's
     * {@code where} as written; null when it verified every key).
     */
    VERIFY_REPORT(List.of(text("schema"), text("name"), text("verified_at"), integer("missing"), integer("extra"),
            integer("differs"), new OutputColumn("repaired", SqlType.BOOLEAN, Collation.BINARY, true), text("sample"),
            text("key_range"))),

    /**
     * {@code locks()}: one row per lock a live transaction holds or waits for: {@code transaction}
     * (its session and database), {@code waiting} (false for a holder), {@code object} (the
     * catalog, a table, or a key of a table), {@code mode} ('INTENT_SHARED', 'INTENT_EXCLUSIVE',
     * 'SHARED', 'EXCLUSIVE') and {@code since} (an ISO-8601 instant: granted, or asked for).
     */
    LOCKS(List.of(text("transaction"), new OutputColumn("waiting", SqlType.BOOLEAN, Collation.BINARY, true),
            text("object"), text("mode"), text("since"))),

    /**
     * {@code lock_waits()}: one row of counters since the database opened: {@code waits} (lock
     * requests that had to wait), {@code deadlocks} (transactions chosen to end one) and
     * {@code timeouts} (waits that passed the lock timeout).
     */
    LOCK_WAITS(List.of(new OutputColumn("waits", SqlType.INTEGER, Collation.BINARY, true),
            new OutputColumn("deadlocks", SqlType.INTEGER, Collation.BINARY, true),
            new OutputColumn("timeouts", SqlType.INTEGER, Collation.BINARY, true))),

    /**
     * {@code transaction_counts()}: one row of counters since the database opened: {@code open}
     * (transactions begun and not ended), {@code commits} (transactions that wrote and committed),
     * {@code rollbacks} (that wrote and rolled back), {@code prepares} (first phases of two-phase
     * commits that voted to commit) and {@code read_only} (transactions that ended having written
     * nothing, however they ended: reads, an operator's polling among them).
     */
    TRANSACTION_COUNTS(List.of(new OutputColumn("open", SqlType.INTEGER, Collation.BINARY, true),
            new OutputColumn("commits", SqlType.INTEGER, Collation.BINARY, true),
            new OutputColumn("rollbacks", SqlType.INTEGER, Collation.BINARY, true),
            new OutputColumn("prepares", SqlType.INTEGER, Collation.BINARY, true),
            new OutputColumn("read_only", SqlType.INTEGER, Collation.BINARY, true))),

    /**
     * {@code statement_cache()}: one row of counters since the database opened: {@code reused}
     * (statements run by a text their session kept parsed) and {@code parsed} (run by a text
     * parsed for the run: a first run, a text given up for newer ones, every run where sessions
     * keep none). Prepared statements count in neither.
     */
    STATEMENT_CACHE(List.of(new OutputColumn("reused", SqlType.INTEGER, Collation.BINARY, true),
            new OutputColumn("parsed", SqlType.INTEGER, Collation.BINARY, true))),

    /** {@code generate_series(start, stop[, step])}: one {@code value} per step from start to stop inclusive. */
    GENERATE_SERIES(2, 3, List.of(integer("value")));

    private final int minArguments;
    private final int maxArguments;
    private final List<OutputColumn> columns;

    SystemTableFunction(List<OutputColumn> columns) {
        this(0, 0, columns);
    }

    SystemTableFunction(int minArguments, int maxArguments, List<OutputColumn> columns) {
        this.minArguments = minArguments;
        this.maxArguments = maxArguments;
        this.columns = columns;
    }

    /** Rejects a call with the wrong number of arguments, sited at the call. */
    public void checkArguments(int given, io.derive.engine.sql.ast.SourceSpan at) {
        if (given < minArguments || given > maxArguments) {
            String expected = minArguments == maxArguments ? String.valueOf(minArguments)
                    : minArguments + " to " + maxArguments;
            throw new io.derive.engine.api.DeriveException(io.derive.engine.api.DeriveException.SYNTAX,
                    sqlName() + "() takes " + expected + " arguments but was given " + given, at.line(), at.column());
        }
    }

    public List<OutputColumn> columns() {
        return columns;
    }

    public String sqlName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<SystemTableFunction> named(String name) {
        for (SystemTableFunction f : values()) {
            if (f.sqlName().equalsIgnoreCase(name)) {
                return Optional.of(f);
            }
        }
        return Optional.empty();
    }

    private static OutputColumn text(String name) {
        return new OutputColumn(name, SqlType.TEXT, Collation.BINARY, true);
    }

    private static OutputColumn integer(String name) {
        return new OutputColumn(name, SqlType.INTEGER, Collation.BINARY, true);
    }

    private static OutputColumn real(String name) {
        return new OutputColumn(name, SqlType.REAL, Collation.BINARY, true);
    }
}
