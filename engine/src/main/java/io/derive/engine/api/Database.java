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
     * prepared keep the whole database waiting (those that changed the catalog, see
     * {@link #inDoubt()}), {@link DatabaseStatus.State#OPENING} while it rehydrates after the
     * last of them was decided, {@link DatabaseStatus.State#CLOSED}
     * after {@link #close()}, and {@link DatabaseStatus.State#FAILED} when that rehydrate failed
     * (the database is then closed). It never blocks on an open, a decision or a statement in
     * progress, and answers after {@link #close()} too, so a health check may call it at any time.
     */
    DatabaseStatus status();

    /**
     * The global-transaction branches of this database a transaction manager has to decide or
     * forget: those prepared by live or closed sessions ({@link Session#begin(javax.transaction.xa.Xid)}),
     * those a process that ended left prepared on the durable host, and those an operator
     * decided ({@link #resolveHeuristically}) until they are {@linkplain #forgetHeuristic forgotten}
     * — what XA {@code recover} answers.
     *
     * <p>While a branch an ended process left is undecided, what it wrote is of unknown outcome:
     * every statement that reads or writes a table, materialized view or index it wrote, or a
     * materialized view over one of them (directly or through other views), fails at once with
     * {@link DeriveException#IN_DOUBT}, naming the object and the branch; everything else answers.
     * A branch that changed the catalog (DDL) keeps the whole database waiting: every statement
     * fails with {@link DeriveException#IN_DOUBT}, naming the branches, and the open completes
     * (rehydrate included) once the last such branch is decided. {@link #rehydrateReport()}
     * says what waits, and what was done with it once its branch was decided.
     *
     * @throws DeriveException when the durable host cannot list its branches
     */
    List<BranchId> inDoubt();

    /**
     * The branches a process that ended left prepared on the durable host, undecided or decided
     * by an operator and not yet forgotten, with what each wrote; empty for a database that is
     * not durable. Branches of this process's live or closed sessions are not listed.
     *
     * @throws DeriveException when the durable host cannot list its branches
     */
    List<InDoubtBranch> inDoubtBranches();

    /**
     * Commits the prepared branch {@code xid}, from whichever session (if any) prepared it; for
     * a branch an ended process left, what it fenced opens: tables and indexes at once,
     * materialized views adopted or refilled from the committed outcome.
     *
     * @throws DeriveException {@link DeriveException#HEURISTICALLY_COMMITTED} or
     *         {@link DeriveException#HEURISTICALLY_ROLLED_BACK} when an operator decided the
     *         branch ({@link #resolveHeuristically}) and it is not forgotten yet: the code says
     *         the outcome, whatever this call asked, and nothing changes;
     *         {@link DeriveException#UNDEFINED_OBJECT} when no branch of that xid is prepared here;
     *         another code when the commit fails (the branch stays prepared)
     */
    void commitInDoubt(Xid xid);

    /**
     * Rolls back the prepared branch {@code xid}, from whichever session (if any) prepared it;
     * what it fenced opens as after {@link #commitInDoubt}.
     *
     * @throws DeriveException {@link DeriveException#HEURISTICALLY_COMMITTED} or
     *         {@link DeriveException#HEURISTICALLY_ROLLED_BACK} as for {@link #commitInDoubt};
     *         {@link DeriveException#UNDEFINED_OBJECT} when no branch of that xid is prepared here
     */
    void rollbackInDoubt(Xid xid);

    /**
     * An operator's decision of a branch a process that ended left in doubt, for when its
     * transaction manager cannot decide it (its log is lost): first records the outcome durably,
     * then commits ({@code commit}) or rolls back the branch on the durable host and opens what
     * it fenced, as {@link #commitInDoubt} and {@link #rollbackInDoubt} do. A crash between the
     * two finishes the decision at the next open. From then on, until {@link #forgetHeuristic},
     * {@link #inDoubt()} still lists the branch, {@link #inDoubtBranches()} shows its outcome, and
     * the transaction manager's {@link #commitInDoubt} or {@link #rollbackInDoubt} fails with the
     * code of the outcome (for XA: {@code XA_HEURCOM} or {@code XA_HEURRB}; the branch is one
     * host transaction, so its outcome is never mixed).
     *
     * @throws DeriveException {@link DeriveException#UNDEFINED_OBJECT} when no branch of that xid
     *         is in doubt from an ended process (a live session's prepared branch is its
     *         transaction manager's to decide); {@link DeriveException#HEURISTICALLY_COMMITTED} or
     *         {@link DeriveException#HEURISTICALLY_ROLLED_BACK} when it was decided already;
     *         another code when the host fails (the outcome is recorded and the next open finishes it)
     */
    void resolveHeuristically(Xid xid, boolean commit);

    /**
     * Forgets the operator's decision of {@code xid} (XA {@code forget}): the branch is no longer
     * listed anywhere.
     *
     * @throws DeriveException {@link DeriveException#UNDEFINED_OBJECT} when no decision of that
     *         xid is recorded
     */
    void forgetHeuristic(Xid xid);

    /**
     * Closes every table module, recording a clean close for a durable database. Sessions still
     * open can no longer be used meaningfully; a prepared branch stays prepared on the durable
     * host, in doubt at the next open. Closing twice does nothing.
     */
    @Override
    void close();
}
