package io.derive.rar;

import io.derive.engine.api.BranchId;
import io.derive.engine.api.CommitVote;
import io.derive.engine.api.DeriveException;
import io.derive.engine.api.Result;
import io.derive.engine.api.Session;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Timer;
import java.util.TimerTask;
import java.util.concurrent.locks.ReentrantLock;

import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;

/**
 * The one engine transaction of a global (XA) transaction on one database, shared by all of its
 * branches.
 *
 * <p>Liberty couples the branches of a global transaction loosely: a second Derive connection
 * enlisted in the same JTA transaction starts a branch with the same global transaction id, a new
 * branch qualifier and {@code TMNOFLAGS}. Every such branch runs its statements on this one
 * engine transaction, which lives on the session of the connection that started the first branch
 * (the <em>carrier</em>: the engine transaction, and Derby's XA branch under it, carry that
 * branch's xid), so the branches never wait for each other's locks.
 *
 * <p>The vote, sound in any prepare order: the first {@code prepare} of any branch prepares the
 * engine transaction; the carrier branch then votes {@code XA_OK} (or {@code XA_RDONLY} when
 * nothing was written) and every other branch {@code XA_RDONLY}. The transaction manager so
 * commits, and after a crash recovers, exactly the xid Derby logged as prepared. A rollback of
 * any branch, a branch ended with {@code TMFAIL}, a failed statement that ended the engine
 * transaction, or the branch timeout rolls the whole transaction back; its other branches then
 * answer {@code XA_RB*}.
 *
 * <p>Two locks, taken in this order: {@link #work} serialises every use of the carrier session
 * (a statement, prepare, commit, rollback, close); this object's monitor guards the state alone
 * and is held only briefly, never across a statement. So a branch lookup, a new branch's start or
 * an {@code end} answers while a long statement runs, and a rollback from the transaction
 * manager's thread reaches the running statement to stop it. Neither lock ever takes a managed
 * connection's monitor.
 */
final class GlobalTransaction {

    private static final Logger LOG = System.getLogger(GlobalTransaction.class.getName());

    private enum Phase { ACTIVE, PREPARED, COMMITTED, ROLLED_BACK, READ_ONLY, PARKED }

    /** A branch that still awaits a call of the transaction manager. */
    private static final class Branch {
        int associations = 1;
        boolean votedToCommit;
    }

    private final BranchId carrier;
    private final DeriveManagedConnection owner;
    private final Session session;
    private final Map<BranchId, Branch> branches = new LinkedHashMap<>();
    private final ReentrantLock work = new ReentrantLock();
    private final int timeoutSeconds;
    private final long deadlineNanos;
    private TimerTask expiry;
    // Guards the cancel of a running statement against the end of this transaction: once it has
    // ended, the owner's session may carry an unrelated transaction that no cancel may reach.
    private final Object cancelGuard = new Object();
    private boolean cancelable = true;
    private volatile String cancelReason;
    private volatile int cancelCode;
    private Phase phase = Phase.ACTIVE;
    private boolean rollbackOnly;
    private int rollbackCode = XAException.XA_RBROLLBACK;
    private String rollbackReason = "it was rolled back";

    private GlobalTransaction(BranchId carrier, DeriveManagedConnection owner, int timeoutSeconds) {
        this.carrier = carrier;
        this.owner = owner;
        this.session = owner.session();
        this.timeoutSeconds = timeoutSeconds;
        this.deadlineNanos = System.nanoTime() + timeoutSeconds * 1_000_000_000L;
        branches.put(carrier, new Branch());
    }

    /**
     * Begins the engine transaction of branch {@code xid} on {@code owner}'s session; a positive
     * timeout rolls it back at its deadline, also while no call is in progress (the Connectors
     * spec's {@code BootstrapContext.createTimer} gives the adapter its timer for such work).
     */
    static GlobalTransaction begin(BranchId xid, DeriveManagedConnection owner, int timeoutSeconds, Timer timeouts) throws XAException {
        try {
            owner.session().begin(xid);
        } catch (DeriveException e) {
            throw XaCodes.error(DeriveException.DUPLICATE_OBJECT.equals(e.code()) ? XAException.XAER_DUPID : XAException.XAER_RMERR, e);
        }
        GlobalTransaction g = new GlobalTransaction(xid, owner, timeoutSeconds);
        if (timeoutSeconds > 0) {
            g.expiry = new TimerTask() {
                @Override
                public void run() {
                    g.expire();
                }
            };
            timeouts.schedule(g.expiry, timeoutSeconds * 1000L);
        }
        return g;
    }

    BranchId carrier() {
        return carrier;
    }

    DeriveManagedConnection owner() {
        return owner;
    }

    /**
     * Adds branch {@code xid} of the same global transaction.
     *
     * @return false when this transaction is already finished (the caller begins a new one)
     * @throws XAException XAER_DUPID when the branch exists; XAER_PROTO once the transaction prepares
     */
    synchronized boolean addBranch(BranchId xid) throws XAException {
        if (isFinished()) {
            return false;
        }
        if (branches.containsKey(xid)) {
            throw XaCodes.error(XAException.XAER_DUPID, "the branch is already started");
        }
        if (phase != Phase.ACTIVE) {
            throw XaCodes.error(XAException.XAER_PROTO, "a new branch of a global transaction that is already " + phase.name().toLowerCase());
        }
        branches.put(xid, new Branch());
        return true;
    }

    synchronized boolean hasBranch(BranchId xid) {
        return branches.containsKey(xid);
    }

    /** A further association (TMJOIN, TMRESUME) of a thread of control with branch {@code xid}. */
    synchronized void associate(BranchId xid, boolean join) throws XAException {
        Branch b = requireBranch(xid);
        if (b.votedToCommit || phase == Phase.PREPARED) {
            // XA: a join needs a branch that is not yet prepared.
            throw XaCodes.error(XAException.XAER_PROTO, "join of a prepared branch");
        }
        if (join) {
            b.associations++;
        }
    }

    /**
     * Ends one association with branch {@code xid}; {@code failed} (TMFAIL) marks the whole
     * transaction rollback-only.
     */
    synchronized void dissociate(BranchId xid, boolean failed) {
        Branch b = branches.get(xid);
        if (b != null && b.associations > 0) {
            b.associations--;
        }
        if (failed) {
            markRollbackOnly("a branch ended with TMFAIL");
        }
    }

    synchronized void markRollbackOnly(String reason) {
        if (!rollbackOnly) {
            rollbackOnly = true;
            rollbackReason = reason;
        }
    }

    /**
     * Runs a statement of any branch on the shared engine transaction.
     *
     * @throws DeriveException the statement's own error; {@code TRANSACTION_STATE} when the
     *                         transaction is rolled back, timed out or already preparing
     */
    Result execute(String sql, Object[] params) {
        work.lock();
        try {
            requireStatementsAllowed();
            try {
                return session.execute(sql, params);
            } catch (DeriveException e) {
                String reason = cancelReason;
                if (DeriveException.CANCELED.equals(e.code()) && reason != null) {
                    // Roll back here, not only in the canceler's thread: the application's end call
                    // that follows must already find the transaction rolled back, with the cause.
                    rollbackSession();
                    endRolledBack(cancelCode, reason);
                    throw new DeriveException(DeriveException.CANCELED,
                            "the statement was stopped and the Derive work of this JTA transaction is rolled back: " + reason, e);
                }
                if (!session.inTransaction()) {
                    endRolledBack(XaCodes.rollbackCode(e), "a statement failed and rolled it back: " + e.getMessage());
                }
                throw e;
            }
        } finally {
            work.unlock();
        }
    }

    private synchronized void requireStatementsAllowed() {
        if (phase == Phase.ROLLED_BACK) {
            throw new DeriveException(DeriveException.TRANSACTION_STATE,
                    "the Derive work of this JTA transaction is rolled back: " + rollbackReason);
        }
        if (phase != Phase.ACTIVE) {
            throw new DeriveException(DeriveException.TRANSACTION_STATE,
                    "the Derive work of this JTA transaction is " + phase.name().toLowerCase() + "; no statement may join it");
        }
        if (!session.inTransaction()) {
            endRolledBack(XAException.XA_RBROLLBACK, "an earlier statement's error rolled it back");
            throw new DeriveException(DeriveException.TRANSACTION_STATE,
                    "the Derive work of this JTA transaction was rolled back by an earlier error");
        }
    }

    /**
     * Prepares branch {@code xid}: the first prepare of any branch prepares the engine
     * transaction; the vote follows the rule in the class comment.
     */
    int prepare(BranchId xid) throws XAException {
        return onSession(() -> {
            Branch b = requireBranch(xid);
            if (b.associations > 0) {
                throw XaCodes.error(XAException.XAER_PROTO, "prepare of a branch that is not ended");
            }
            if (b.votedToCommit) {
                throw XaCodes.error(XAException.XAER_PROTO, "the branch is already prepared");
            }
            if (phase == Phase.ACTIVE) {
                requireAllEnded("prepare");
            }
            if (phase == Phase.ACTIVE || phase == Phase.ROLLED_BACK) {
                try {
                    CommitVote vote = prepareEngine();
                    phase = vote == CommitVote.READ_ONLY ? Phase.READ_ONLY : Phase.PREPARED;
                } catch (XAException e) {
                    // XA: a prepare answering XA_RB* has rolled the branch back; no rollback call follows.
                    branches.remove(xid);
                    throw e;
                }
            }
            if (phase == Phase.PREPARED && xid.equals(carrier)) {
                b.votedToCommit = true;
                return XAResource.XA_OK;
            }
            // XA: after XA_RDONLY the branch is complete and the transaction manager sends nothing more.
            branches.remove(xid);
            return XAResource.XA_RDONLY;
        });
    }

    /** Commits the transaction through branch {@code xid}: two-phase after its XA_OK vote, or one-phase. */
    void commit(BranchId xid, boolean onePhase) throws XAException {
        onSession(() -> {
            Branch b = requireBranch(xid);
            if (!onePhase) {
                if (!b.votedToCommit) {
                    throw XaCodes.error(XAException.XAER_PROTO, "two-phase commit of a branch that is not prepared (" + phase + ")");
                }
                try {
                    session.commit();
                } catch (DeriveException e) {
                    // The branch stays prepared: the transaction manager retries the commit later.
                    throw XaCodes.error(XAException.XAER_RMFAIL, e);
                }
                finish(Phase.COMMITTED);
                return null;
            }
            if (b.associations > 0 || b.votedToCommit || phase == Phase.READ_ONLY) {
                throw XaCodes.error(XAException.XAER_PROTO, "one-phase commit of a branch in state " + (b.associations > 0 ? "active" : phase.name()));
            }
            if (phase == Phase.ACTIVE) {
                requireAllEnded("one-phase commit");
            }
            try {
                // Prepared by another branch's prepare (which voted XA_RDONLY): the transaction
                // manager then commits the last branch in one phase, leaving the decision to us.
                if (phase != Phase.PREPARED) {
                    requireCommittable();
                }
                session.commit();
            } catch (DeriveException e) {
                // A one-phase commit that fails has rolled the whole transaction back.
                endRolledBack(XaCodes.rollbackCode(e), e.getMessage());
                branches.remove(xid);
                throw XaCodes.error(XaCodes.rollbackCode(e), e);
            } catch (XAException e) {
                branches.remove(xid);
                throw e;
            }
            finish(Phase.COMMITTED);
            return null;
        });
    }

    /**
     * Rolls the whole transaction back through branch {@code xid}. A statement running meanwhile
     * (the transaction manager may roll back from its own thread, at its timeout) stops at its
     * next row boundary first, so the rollback does not wait for it to finish.
     */
    void rollback(BranchId xid) throws XAException {
        stopRunningStatement(XAException.XA_RBROLLBACK, "the transaction manager rolled it back");
        onSession(() -> {
            requireBranch(xid);
            if (phase == Phase.ACTIVE || phase == Phase.PREPARED) {
                try {
                    session.rollback();
                } finally {
                    endRolledBack(XAException.XA_RBROLLBACK, "a branch was rolled back");
                }
            }
            branches.remove(xid);
            return null;
        });
    }

    /**
     * Closes the owner's session, whose connection is destroyed: a prepared transaction is then
     * parked in the database, to be decided there ({@code Database.commitInDoubt}); an active one
     * rolls back with the session.
     */
    void closeOwnerSession() {
        stopRunningStatement(XAException.XA_RBROLLBACK, "its connection was destroyed");
        work.lock();
        try {
            synchronized (this) {
                if (phase == Phase.PREPARED) {
                    finish(Phase.PARKED);
                } else if (phase == Phase.ACTIVE) {
                    endRolledBack(XAException.XA_RBROLLBACK, "its connection was destroyed");
                }
                session.close();
            }
        } finally {
            work.unlock();
        }
    }

    synchronized boolean isRolledBack() {
        return phase == Phase.ROLLED_BACK;
    }

    /** Reports, to an {@code end} call, that the transaction is already rolled back. */
    synchronized void reportRollback() throws XAException {
        if (phase == Phase.ROLLED_BACK) {
            throw XaCodes.error(rollbackCode, "the branch is rolled back: " + rollbackReason);
        }
    }

    /** True once the transaction committed, rolled back or finished read-only (or was parked). */
    synchronized boolean isFinished() {
        return phase != Phase.ACTIVE && phase != Phase.PREPARED;
    }

    /** True once finished with no branch awaiting a call. */
    synchronized boolean isDone() {
        return isFinished() && branches.isEmpty();
    }

    /** The timeout: roll back at the deadline, stopping a running statement, or while the application thread is idle. */
    private void expire() {
        stopRunningStatement(XAException.XA_RBTIMEOUT, "it outlived its " + timeoutSeconds + " s timeout");
        work.lock();
        try {
            synchronized (this) {
                if (phase != Phase.ACTIVE) {
                    return;
                }
                LOG.log(Level.INFO, "rolling back global transaction branch {0}: it outlived its {1} s timeout", carrier, timeoutSeconds);
                rollbackSession();
                endRolledBack(XAException.XA_RBTIMEOUT, "it outlived its " + timeoutSeconds + " s timeout");
            }
        } finally {
            work.unlock();
        }
    }

    /** Runs {@code body} holding both locks, in their order: the session's, then the state's. */
    private <T> T onSession(SessionWork<T> body) throws XAException {
        work.lock();
        try {
            synchronized (this) {
                return body.run();
            }
        } finally {
            work.unlock();
        }
    }

    private interface SessionWork<T> {
        T run() throws XAException;
    }

    private void rollbackSession() {
        try {
            session.rollback();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "rollback of branch " + carrier + " failed", e);
        }
    }

    private void stopRunningStatement(int code, String reason) {
        synchronized (cancelGuard) {
            if (cancelable) {
                cancelCode = code;
                cancelReason = reason;
                session.cancel();
            }
        }
    }

    private CommitVote prepareEngine() throws XAException {
        requireCommittable();
        try {
            return session.prepareCommit();
        } catch (DeriveException e) {
            endRolledBack(XaCodes.rollbackCode(e), e.getMessage());
            throw XaCodes.error(XaCodes.rollbackCode(e), e);
        }
    }

    /** Refuses to commit a transaction marked rollback-only or past its timeout, rolling it back. */
    private void requireCommittable() throws XAException {
        if (phase == Phase.ROLLED_BACK) {
            throw XaCodes.error(rollbackCode, "the branch is rolled back: " + rollbackReason);
        }
        if (timeoutSeconds > 0 && System.nanoTime() - deadlineNanos > 0) {
            abandon(XAException.XA_RBTIMEOUT, "it outlived its " + timeoutSeconds + " s timeout");
        }
        if (rollbackOnly || !session.inTransaction()) {
            abandon(XAException.XA_RBROLLBACK, rollbackOnly ? rollbackReason : "an earlier statement's error rolled it back");
        }
    }

    private void abandon(int code, String reason) throws XAException {
        try {
            session.rollback();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "rollback of an abandoned branch failed", e);
            owner.connectionFailed(e);
        }
        endRolledBack(code, reason);
        throw XaCodes.error(code, "the branch was rolled back: " + reason);
    }

    private void requireAllEnded(String operation) throws XAException {
        for (Map.Entry<BranchId, Branch> e : branches.entrySet()) {
            if (e.getValue().associations > 0) {
                throw XaCodes.error(XAException.XAER_PROTO, operation + " while branch " + e.getKey() + " of the same global transaction is not ended");
            }
        }
    }

    private Branch requireBranch(BranchId xid) throws XAException {
        Branch b = branches.get(xid);
        if (b == null) {
            throw XaCodes.error(XAException.XAER_NOTA, "no branch " + XaCallJournal.format(xid));
        }
        return b;
    }

    private synchronized void endRolledBack(int code, String reason) {
        if (phase == Phase.ROLLED_BACK) {
            return;
        }
        rollbackCode = code;
        rollbackReason = reason;
        finish(Phase.ROLLED_BACK);
    }

    private void finish(Phase outcome) {
        synchronized (cancelGuard) {
            cancelable = false;
        }
        phase = outcome;
        if (outcome != Phase.ROLLED_BACK) {
            branches.clear();
        }
        if (expiry != null) {
            expiry.cancel();
        }
    }

    @Override
    public String toString() {
        return "GlobalTransaction[" + carrier + ", " + phase + "]";
    }
}
