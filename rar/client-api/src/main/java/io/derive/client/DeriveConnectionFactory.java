package io.derive.client;

import io.derive.engine.api.DatabaseStatus;
import io.derive.engine.api.DeriveException;
import io.derive.engine.api.InDoubtBranch;

import java.io.Serializable;
import java.util.List;

import javax.transaction.xa.Xid;

import jakarta.resource.Referenceable;

/**
 * The application's entry point to a Derive database managed by the resource adapter, looked up
 * as {@code @Resource(lookup = "eis/derive")} or injected with CDI.
 *
 * <p>Contract:
 * <ul>
 *   <li>{@link #getConnection()} may be called from any thread; each call returns a new handle
 *       that the caller must {@linkplain DeriveConnection#close() close}, preferably with
 *       try-with-resources.</li>
 *   <li>Inside a JTA transaction every connection obtained from the same factory takes part in
 *       that transaction, and all of them share one engine transaction: each sees the others'
 *       uncommitted writes and none waits for another's locks. The work becomes visible to
 *       others only when the JTA transaction commits and is discarded when it rolls back.</li>
 *   <li>Outside a JTA transaction each statement commits on its own (autocommit).</li>
 * </ul>
 *
 * <p>It is {@link Serializable} and {@link Referenceable} so that the container can bind it in
 * JNDI, as the Connectors specification requires of a connection factory.
 */
public interface DeriveConnectionFactory extends Serializable, Referenceable {

    /**
     * Obtains a connection handle. While the database is still {@linkplain #status() opening}
     * it waits for the open to end.
     *
     * @return an open connection, never {@code null}
     * @throws DeriveException if the container cannot supply a connection (for example the pool
     *                         is exhausted or the database cannot be opened)
     */
    DeriveConnection getConnection();

    /**
     * Where this factory's database stands now: {@link DatabaseStatus.State#OPEN} when
     * connections can run statements; {@link DatabaseStatus.State#OPENING} while it is opened
     * (its views rehydrated); {@link DatabaseStatus.State#WAITING_FOR_IN_DOUBT}, with the number
     * of branches, while branches a crash left prepared wait for the transaction manager's
     * recovery; {@link DatabaseStatus.State#CLOSED} once the resource adapter has stopped; and
     * {@link DatabaseStatus.State#FAILED}, with the reason, when it could not be opened or was
     * closed because of a failure. Readiness is {@link DatabaseStatus#isOpen()}.
     *
     * <p>It obtains no connection, never waits for an open or a recovery in progress and never
     * throws, so a health check may call it at any time.
     */
    DatabaseStatus status();

    /**
     * For an operator: the branches a server process that ended left prepared on this factory's
     * durable database, undecided or decided by hand and not yet forgotten, each with what it
     * wrote (see {@link io.derive.engine.api.Database#inDoubtBranches()}); empty for a database
     * that is not durable. Branches of live transactions are the transaction manager's and are
     * not listed. It obtains no connection and takes no part in a JTA transaction; while the
     * database is opening it waits for the open.
     *
     * @throws DeriveException when the database cannot be opened or its host cannot list its branches
     */
    List<InDoubtBranch> inDoubtBranches();

    /**
     * For an operator whose transaction manager cannot decide a branch (its log is lost): commits
     * or rolls back the in-doubt branch {@code xid} by hand (see
     * {@link io.derive.engine.api.Database#resolveHeuristically}). What the branch wrote answers
     * again at once. The decision is recorded durably; until the transaction manager forgets it,
     * {@code recover} lists the branch and the manager's commit or rollback is answered
     * {@code XA_HEURCOM} or {@code XA_HEURRB}. It takes no part in a JTA transaction.
     *
     * @throws DeriveException {@link DeriveException#UNDEFINED_OBJECT} when no branch of that xid
     *         is in doubt from an ended process; {@link DeriveException#HEURISTICALLY_COMMITTED}
     *         or {@link DeriveException#HEURISTICALLY_ROLLED_BACK} when it was decided already
     *         (nothing changes); another code when the database cannot be opened or its host fails
     */
    void resolveInDoubt(Xid xid, boolean commit);

    /**
     * For an operator whose transaction manager will never ask again: forgets the decision of
     * {@code xid} made by {@link #resolveInDoubt}, as XA {@code forget} would; the branch is no
     * longer listed anywhere.
     *
     * @throws DeriveException {@link DeriveException#UNDEFINED_OBJECT} when no decision of that
     *         xid is recorded; another code when the database cannot be opened
     */
    void forgetResolved(Xid xid);
}
