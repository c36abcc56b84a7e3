package io.derive.engine.api;

import java.util.List;

import javax.transaction.xa.Xid;

/**
 * An open Derive database: its catalog, its tables and the sessions that use it. It is
 * thread-safe: open it once (with {@code io.derive.engine.Derive}) and share it between threads;
 * each thread works through {@link Session}s of its own.
 */
public interface Database extends AutoCloseable {

    /** The name given when the database was opened, as used in logs and error messages. */
    String name();

    /**
     * A new session. Sessions are cheap and not thread-safe.
     *
     * @throws DeriveException with {@link DeriveException#TRANSACTION_STATE} once the database is closed
     */
    Session openSession();

    /**
     * What the open did with each materialized view of a durable database (adopted, refilled or
     * failed, and why); {@link RehydrateReport#NONE} for a database that is not durable.
     */
    RehydrateReport rehydrateReport();

    /**
     * Where the database stands now: {@link DatabaseStatus.State#OPEN} once it is open,
     * {@link DatabaseStatus.State#WAITING_FOR_IN_DOUBT} while branches an ended process left
     * prepared are undecided (see {@link #inDoubt()}), {@link DatabaseStatus.State#OPENING}
     * while it rehydrates after the last of them was decided, {@link DatabaseStatus.State#CLOSED}
     * after {@link #close()}, and {@link DatabaseStatus.State#FAILED} when that rehydrate failed
     * (the database is then closed). It never blocks on an open, a decision or a statement in
     * progress, and answers after {@link #close()} too, so a health check may call it at any time.
     */
    DatabaseStatus status();

    /**
     * The global-transaction branches prepared in this database and not yet decided: those of
     * live or closed sessions ({@link Session#begin(javax.transaction.xa.Xid)}) and those a
     * process that ended left prepared on the durable host. While any of the latter is
     * undecided the database does not open: every statement fails with
     * {@link DeriveException#TRANSACTION_STATE}, naming the branches, and the open completes
     * (rehydrate included) once the last of them is decided.
     *
     * @throws DeriveException when the durable host cannot list its branches
     */
    List<BranchId> inDoubt();

    /**
     * Commits the prepared branch {@code xid}, from whichever session (if any) prepared it.
     *
     * @throws DeriveException {@link DeriveException#UNDEFINED_OBJECT} when no branch of that
     *         xid is prepared here; another code when the commit fails (the branch stays prepared)
     */
    void commitInDoubt(Xid xid);

    /**
     * Rolls back the prepared branch {@code xid}, from whichever session (if any) prepared it.
     *
     * @throws DeriveException {@link DeriveException#UNDEFINED_OBJECT} when no branch of that
     *         xid is prepared here
     */
    void rollbackInDoubt(Xid xid);

    /**
     * Closes every table module, recording a clean close for a durable database. Sessions still
     * open can no longer be used meaningfully; a prepared branch stays prepared on the durable
     * host, in doubt at the next open. Closing twice does nothing.
     */
    @Override
    void close();
}
