package io.derive.engine.api;

import java.util.Map;

/**
 * One user's conversation with a {@link Database}. A session is not thread-safe: callers use it
 * from one thread at a time, although consecutive calls may come from different threads (as an
 * XA transaction manager does).
 *
 * <p>Outside an explicit transaction every statement runs in its own transaction (autocommit).
 * {@link #begin()} (or the SQL {@code begin}) opens an explicit one that lasts until
 * {@link #commit()} or {@link #rollback()}; while it is open the session reads its own writes and
 * other sessions see none of them. The first write of a transaction takes the database write lock,
 * waiting at most the configured timeout; the lock is held until the transaction ends.
 *
 * <p>Every statement is atomic: when {@code execute} throws {@link DeriveException}, the statement
 * has left no trace and the transaction is as it was, unless the exception says
 * {@link DeriveException#endedTransaction() it ended the transaction}.
 */
public interface Session extends AutoCloseable {

    /**
     * Runs one SQL statement with positional parameters ({@code ?}, {@code ?NNN}).
     *
     * @throws DeriveException for a syntax, name, type, constraint or transaction error
     */
    Result execute(String sql, Object... parameters);

    /** Runs one SQL statement with named parameters ({@code :name}). */
    Result execute(String sql, Map<String, ?> parameters);

    /**
     * Parses one statement once, to run it many times with different parameters. The statement
     * is planned at each run against the schema of that moment, so DDL in between is seen.
     *
     * @throws DeriveException for a syntax error
     */
    PreparedStatement prepare(String sql);

    /**
     * Opens an explicit transaction.
     *
     * @throws DeriveException ({@link DeriveException#TRANSACTION_STATE}) if one is already open
     */
    void begin();

    /**
     * First step of a two-step commit: runs end-of-transaction work and checks, then prepares
     * every table connection the transaction registered. After {@link CommitVote#PREPARED} only
     * {@link #commit()} or {@link #rollback()} may follow; after {@link CommitVote#READ_ONLY} the
     * transaction has ended.
     *
     * @throws DeriveException if a check fails; the transaction is then rolled back
     */
    CommitVote prepareCommit();

    /** Commits the open transaction, preparing it first if {@link #prepareCommit()} was not called. */
    void commit();

    /** Rolls the open transaction back; without one it does nothing. */
    void rollback();

    /** True while an explicit transaction is open. */
    boolean inTransaction();

    /** Rolls back an open transaction and releases the session. */
    @Override
    void close();
}
