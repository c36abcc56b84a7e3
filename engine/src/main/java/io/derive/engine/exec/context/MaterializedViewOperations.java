package io.derive.engine.exec.context;

import io.derive.engine.api.Result;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.sql.ast.Statement;

/**
 * What the executor needs from materialized-view maintenance (implemented by the {@code mv}
 * package): the MV statements, and the row-time hook every source write passes through.
 */
public interface MaterializedViewOperations {

    /**
     * The tag by which the shadow table of a chunked refresh run names its view
     * ({@code schema.name}); dropping the view drops its shadow.
     */
    String REFRESH_SHADOW_OF = "refresh_of";

    /**
     * The tag by which the lease table of a chunked attach run names its table
     * ({@code schema.name}); dropping the table drops its lease.
     */
    String ATTACH_LEASE_OF = "attach_of";

    Result create(Statement.CreateMaterializedView statement, ExecutionContext context);

    Result refresh(Statement.RefreshMaterializedView statement, ExecutionContext context);

    /**
     * Compares a materialized view with a fresh evaluation of its body, both read in the
     * statement's one snapshot, and with {@code repair} rewrites exactly the keys that differ.
     *
     * @return one row per drifted key ({@link io.derive.engine.api.StatementKind#VERIFY})
     * @throws io.derive.engine.api.DeriveException for a name that is not a materialized view, or
     *         a stale one (its contents are not expected to equal its body until a refresh)
     */
    Result verify(Statement.VerifyMaterializedView statement, ExecutionContext context);

    /**
     * {@code rehydrate materialized view n}: refills n, which a deferred rehydrate left pending
     * ({@link io.derive.engine.txn.PendingRehydrates}), from its body, in the statement's own
     * transaction, whose commit makes it readable. Answers one row: {@code rows} (the rows it
     * holds now) and {@code changed} (the rows of its backing the refill rewrote).
     *
     * @throws io.derive.engine.api.DeriveException when n is not pending, another session refills
     *         it, or one of its sources is still pending
     */
    Result rehydrate(Statement.RehydrateMaterializedView statement, ExecutionContext context);

    /**
     * Attaches a derivation to a declared table, or swaps the body of a maintained one (the table
     * form and {@code alter table … set maintained}): checks the declared shape, refuses cycles,
     * reconciles the existing rows by a keyed diff (identical rows are not rewritten).
     *
     * @param names   renames the body's outputs by position; empty for the body's own names
     * @param reshape whether a plain table whose columns differ from the body's outputs only at
     *                the end is reshaped in place ({@code alter table … set maintained}) rather
     *                than refused (the table form, whose declared columns must be the body's)
     */
    Result attach(TableSchema table, java.util.List<String> names, io.derive.engine.sql.ast.Select body, String bodySql,
                  boolean reshape, ExecutionContext context, io.derive.engine.sql.ast.SourceSpan at);

    /**
     * A step of a chunked attach run of a plain table ({@code alter table t attach …}, semantics
     * §9): the start checks the derivation's shape and takes the table's attach lease, each
     * {@code continue} reconciles the next key range of the table with the body, the finish
     * attaches the derivation (a last keyed diff) and releases the lease.
     *
     * @throws io.derive.engine.api.DeriveException for a maintained table, a run that does not
     *         hold the lease, a shape that does not fit, or a derived row its constraints refuse
     */
    Result attachStep(TableSchema table, Statement.AttachStep step, ExecutionContext context);

    /** {@code alter table … drop maintained}: the rows stay and the table becomes an ordinary table. */
    Result detach(TableSchema table, ExecutionContext context, io.derive.engine.sql.ast.SourceSpan at);

    /**
     * User DML naming a maintained table, rewritten to write its body's source (semantics §4).
     *
     * @throws io.derive.engine.api.DeriveException {@code cannot write through materialized view}
     *         (and why) when the body is not a writable projection
     */
    WriteThroughRewrite writeThrough(Statement dml, TableSchema mv, ExecutionContext context);

    /**
     * A rewritten write: the statement against the source; the body's filter over source
     * columns (null when none) that an inserted row must satisfy; and, for each column the
     * statement writes in order (an insert's columns, an update's assignments; none for a
     * delete), how the value written to the view becomes the value written to the source. That
     * is the value itself but for an invertible computed column, whose conversion throws a
     * {@link io.derive.engine.api.DeriveException} when no source value reads back as the value
     * written.
     */
    record WriteThroughRewrite(Statement statement, io.derive.engine.sql.ast.Expr filter,
                               java.util.List<java.util.function.UnaryOperator<Object>> writeBacks) {
        public WriteThroughRewrite {
            writeBacks = java.util.List.copyOf(writeBacks);
        }
    }

    /** The maintenance arm the statement would register, for {@code explain}; changes nothing. */
    String explainArm(Statement.CreateMaterializedView statement, ExecutionContext context);

    /**
     * Called by the DML executor after each row it wrote to {@code source}, inside the statement:
     * keeps every dependent MV current. {@code before} is null for an insert, {@code after} for a
     * delete.
     */
    void afterRowChange(ExecutionContext context, TableSchema source, Object[] before, Object[] after);

    /**
     * At commit (from {@code exec.write.DeferredRowChecks}): checks rows maintenance derived into {@code mv} (as
     * they are now) against those of its declared constraints that wait for commit — its foreign
     * keys, while {@code pragma foreign_keys} is on at that moment, and its CHECKs that read tables.
     *
     * @throws io.derive.engine.api.DeriveException the first violation, attributed to the maintained table
     */
    void validateAtCommit(ExecutionContext context, TableSchema mv, java.util.List<Object[]> rows);

    /**
     * Called once at the end of every statement that succeeded, inside its savepoint: runs the
     * maintenance deferred to statement end, in dependency order over the MV graph.
     */
    void endOfStatement(ExecutionContext context);

    /**
     * The derivation of {@code mv} over {@code bodySql}, a body rewritten to follow a rename of
     * what it reads (semantics §5), compiled against {@code catalog}, where the renamed objects
     * already carry their new names: the same rows under new names, so the arm is chosen anew but
     * statistics and tags carry over and the create-time gates are not asked again (they passed
     * at registration). {@code mv} already has the column names the rewritten body publishes.
     *
     * @throws io.derive.engine.api.DeriveException when the body no longer plans with the
     *         backing's shape and key (the rename must then be refused)
     */
    io.derive.engine.schema.Derivation rebodied(TableSchema mv, String bodySql, io.derive.engine.schema.Catalog catalog);

    /**
     * The covering MVs that answer the row-time conflict checks of {@code table}'s unique
     * indexes, by index name (semantics §6); an index not named here is answered by its own entries.
     */
    java.util.Map<String, UniqueProbe> uniqueProbes(ExecutionContext context, TableSchema table);

    /** The unique constraints {@code mv} covers as {@code materialized_views()} shows them ({@code t(a, b)}); null when none. */
    String covers(io.derive.engine.schema.Catalog catalog, TableSchema mv);

    /**
     * Conflict candidates of one unique index from a covering MV: the primary keys of the
     * source rows whose indexed values may equal a row's. A superset: the caller checks each
     * against the live source row (it may be gone or changed) under the index's collations.
     */
    interface UniqueProbe {
        java.util.List<Object[]> candidateKeys(Object[] row);
    }

    /**
     * Called by DDL that changed the shape of {@code source} inside the statement (semantics §5):
     * each MV reading it is recompiled in place when its body still plans with the same shape and
     * key and the change cannot alter what it reads ({@code compatible}, or {@code retypedColumn}
     * is a column it does not read); otherwise it goes stale, and so do the MVs that read it.
     * Returns the catalog with those MVs updated.
     *
     * @param retypedColumn the column of {@code source} whose type or collation changed, or -1:
     *                      the change is then incompatible only for the MVs reading that column
     */
    io.derive.engine.schema.Catalog sourceChanged(ExecutionContext context, io.derive.engine.schema.Catalog catalog,
                                                  TableSchema source, boolean compatible, int retypedColumn);
}
