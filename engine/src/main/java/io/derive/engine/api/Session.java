package io.derive.engine.api;

import java.util.Map;

import javax.transaction.xa.Xid;

/**
 * One user's conversation with a {@link Database}. A session is not thread-safe: callers use it
 * from one thread at a time, although consecutive calls may come from different threads (as an
 * XA transaction manager does). The one exception is {@link #cancel()}, which any thread may call
 * at any time.
 *
 * <p>Outside an explicit transaction every statement runs in its own transaction (autocommit).
 * {@link #begin()} (or the SQL {@code begin}) opens an explicit one that lasts until
 * {@link #commit()} or {@link #rollback()}; while it is open the session reads its own writes and
 * other sessions see none of them. A write locks what it changes (rows, groups of the views it
 * maintains, unique values) and what its checks rely on (a foreign key's parent row); a schema
 * change locks the catalog, so it runs alone among writers. A lock another transaction holds is
 * waited for, at most the configured timeout ({@link DeriveException#LOCK_TIMEOUT}); a wait that
 * would close a cycle fails at once with {@link DeriveException#DEADLOCK} and rolls the waiting
 * transaction back. Locks are held until the transaction ends; reads take none and never wait.
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
     * Opens an explicit transaction that is the branch {@code xid} of a global (XA)
     * transaction. It behaves as one {@link #begin()} opens, and besides: {@link #prepareCommit()}
     * makes the rows and catalog changes it wrote on a durable host survive a crash, on a branch
     * of that host's resource manager with this same xid, which {@link Database#inDoubt()} lists
     * until it is decided; {@link #close()} while it is prepared leaves it prepared, to be decided
     * by {@link Database#commitInDoubt} or {@link Database#rollbackInDoubt}.
     *
     * @throws DeriveException {@link DeriveException#TRANSACTION_STATE} if a transaction is open,
     *         or {@link DeriveException#DUPLICATE_OBJECT} if a live transaction of the database
     *         already prepared a branch of this xid
     */
    void begin(Xid xid);

    /**
     * The first phase of a two-phase commit: runs end-of-transaction work and checks, then
     * prepares every table connection the transaction registered and, for a {@linkplain
     * #begin(Xid) branch}, makes its durable part survive a crash. After
     * {@link CommitVote#PREPARED} only {@link #commit()} or {@link #rollback()} may follow; after
     * {@link CommitVote#READ_ONLY} the transaction has ended.
     *
     * @throws DeriveException if a check fails or the durable host cannot prepare; the
     *         transaction is then rolled back
     */
    CommitVote prepareCommit();

    /**
     * Commits the open transaction: the second phase after {@link #prepareCommit()}, else a
     * one-phase commit (the same checks, nothing made durable ahead of the commit).
     *
     * @throws DeriveException if a check or the commit fails; the transaction has then rolled
     *         back, except a prepared branch, which stays prepared (commit it again, or roll it back)
     */
    void commit();

    /** Rolls the open transaction back; without one it does nothing. */
    void rollback();

    /** True while an explicit transaction is open. */
    boolean inTransaction();

    /**
     * Cancels the session's current unit of work: its open transaction (opened by
     * {@link #begin()} or {@link #begin(Xid)}), or, in autocommit, the statement running now.
     * The one method of a session that may be called from any thread, at any time, also while a
     * statement runs on the session's own thread; it returns at once, without waiting for that
     * statement to stop.
     *
     * <p>The statement running now fails at its next row boundary (a row read from a table or
     * produced by a recursive common table, a series or a join loop, a row written) with
     * {@link DeriveException#CANCELED}, whose message names the database and the statement's
     * line:column; as any failing statement, it leaves no trace. A statement waiting for a lock
     * stops within 50 ms. Every later statement of the transaction fails
     * at once with the same code; {@link #prepareCommit()} and {@link #commit()} (and the SQL
     * {@code commit}) fail with it and roll the transaction back, so a canceled transaction never
     * publishes anything. {@link #rollback()} (and the SQL {@code rollback}) ends it as any
     * transaction, and the session's next transaction is not canceled.
     *
     * <p>With no open transaction and no statement running it does nothing: no later statement
     * is canceled. Nor does it reach a commit already past the point where it can stop, or a
     * branch already prepared: they complete as if it had not been called.
     */
    void cancel();

    /**
     * Rolls back an open transaction and releases the session; a prepared {@linkplain
     * #begin(Xid) branch} is left prepared instead, for its transaction manager to decide
     * through the {@link Database}.
     */
    @Override
    void close();
}
