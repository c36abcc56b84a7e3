package io.derive.rar;

import io.derive.engine.api.BranchId;
import io.derive.engine.api.CommitVote;
import io.derive.engine.api.Database;
import io.derive.engine.api.DeriveException;
import io.derive.engine.api.Session;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;

import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;

/**
 * The XA view of one managed connection: its engine session carries at most one branch at a time.
 *
 * <p>{@code start} begins the engine transaction of that branch ({@link Session#begin(Xid)};
 * {@code TMJOIN}/{@code TMRESUME} re-bind the same one), whose work on a durable database rides
 * on a Derby XA branch of the same xid; {@code prepare} is the engine's
 * {@link Session#prepareCommit()}, after which Derby has logged the branch as prepared;
 * {@code commit} is its {@link Session#commit()}, one-phase when asked. A branch this connection
 * does not carry — one another connection prepared, or one a crashed process left in doubt — is
 * committed or rolled back through the {@link Database} (XA: the transaction manager may
 * complete a branch on any XAResource of the same resource manager), and {@code recover} lists
 * the database's prepared branches. Every call is journalled in {@link XaCallJournal} and logged
 * at DEBUG.
 */
final class DeriveXAResource implements XAResource {

    private static final Logger LOG = System.getLogger(DeriveXAResource.class.getName());

    private enum State { ACTIVE, SUSPENDED, ENDED, PREPARED }

    @FunctionalInterface
    private interface Call<T> {
        T run() throws XAException;
    }

    private final DeriveManagedConnection connection;
    private final Session session;

    // Guarded by the managed connection's monitor, like the session.
    private BranchId branch;
    private State state;
    private boolean rollbackOnly;
    private long branchStartNanos;
    private int timeoutSeconds;

    DeriveXAResource(DeriveManagedConnection connection) {
        this.connection = connection;
        this.session = connection.session();
    }

    boolean hasBranch() {
        synchronized (connection) {
            return branch != null;
        }
    }

    void markRollbackOnly() {
        synchronized (connection) {
            rollbackOnly = true;
        }
    }

    @Override
    public void start(Xid xid, int flags) throws XAException {
        call("start", xid, flagNames(flags), () -> {
            BranchId key = branchId(xid);
            if ((flags & (TMJOIN | TMRESUME)) != 0) {
                if (branch == null || !branch.equals(key)) {
                    throw xa(XAException.XAER_NOTA, "start(" + flagNames(flags) + ") of a branch this connection does not carry");
                }
                if ((flags & TMRESUME) != 0 && state != State.SUSPENDED) {
                    throw xa(XAException.XAER_PROTO, "resume of a branch that is not suspended");
                }
                if (state == State.PREPARED || state == State.ACTIVE) {
                    // XA: a join needs a branch that is not associated now and not yet prepared.
                    throw xa(XAException.XAER_PROTO, "join of a branch in state " + state);
                }
                state = State.ACTIVE;
                return null;
            }
            if (flags != TMNOFLAGS) {
                throw xa(XAException.XAER_INVAL, "unsupported start flags " + flagNames(flags));
            }
            if (branch != null) {
                throw branch.equals(key)
                        ? xa(XAException.XAER_DUPID, "the branch is already started")
                        : xa(XAException.XAER_PROTO, "the connection already carries branch " + branch);
            }
            if (session.inTransaction()) {
                throw xa(XAException.XAER_OUTSIDE, "a local transaction is open on this connection");
            }
            try {
                session.begin(key);
            } catch (DeriveException e) {
                throw xa(DeriveException.DUPLICATE_OBJECT.equals(e.code()) ? XAException.XAER_DUPID : XAException.XAER_RMERR, e);
            }
            branch = key;
            state = State.ACTIVE;
            rollbackOnly = false;
            branchStartNanos = System.nanoTime();
            return null;
        });
    }

    @Override
    public void end(Xid xid, int flags) throws XAException {
        call("end", xid, flagNames(flags), () -> {
            requireBranch(xid);
            if (state != State.ACTIVE && !(state == State.SUSPENDED && (flags & TMSUSPEND) == 0)) {
                throw xa(XAException.XAER_PROTO, "end of a branch in state " + state);
            }
            if ((flags & TMSUSPEND) != 0) {
                state = State.SUSPENDED;
                return null;
            }
            if ((flags & TMFAIL) != 0 || !session.inTransaction()) {
                rollbackOnly = true;
            }
            state = State.ENDED;
            return null;
        });
    }

    @Override
    public int prepare(Xid xid) throws XAException {
        return call("prepare", xid, "", () -> {
            requireBranch(xid);
            if (state != State.ENDED) {
                throw xa(XAException.XAER_PROTO, "prepare of a branch in state " + state);
            }
            if (prepareEngine() == CommitVote.READ_ONLY) {
                // XA: after XA_RDONLY the branch is complete and the TM sends no commit/rollback.
                clearBranch();
                return XA_RDONLY;
            }
            XaFaultHook.afterPrepare();
            state = State.PREPARED;
            return XA_OK;
        });
    }

    @Override
    public void commit(Xid xid, boolean onePhase) throws XAException {
        call("commit", xid, "onePhase=" + onePhase, () -> {
            if (!carries(xid)) {
                if (onePhase) {
                    throw xa(XAException.XAER_NOTA, "one-phase commit of a branch this connection does not carry");
                }
                decideElsewhere(xid, true);
                return null;
            }
            if (onePhase) {
                if (state != State.ENDED) {
                    throw xa(XAException.XAER_PROTO, "one-phase commit of a branch in state " + state);
                }
                checkCommittable();
                try {
                    session.commit();
                } catch (DeriveException e) {
                    // A one-phase commit that fails has rolled the whole transaction back.
                    clearBranch();
                    throw xa(rollbackCode(e), e);
                }
                clearBranch();
                return null;
            }
            if (state != State.PREPARED) {
                throw xa(XAException.XAER_PROTO, "two-phase commit of a branch that is not prepared (" + state + ")");
            }
            XaFaultHook.beforeCommit();
            try {
                session.commit();
            } catch (DeriveException e) {
                // The branch stays prepared: the transaction manager retries the commit later.
                throw xa(XAException.XAER_RMFAIL, e);
            }
            clearBranch();
            return null;
        });
    }

    /** The engine's prepare step; a failure there has rolled the transaction back, reported as XA_RB*. */
    private CommitVote prepareEngine() throws XAException {
        checkCommittable();
        try {
            return session.prepareCommit();
        } catch (DeriveException e) {
            abandonBranch();
            throw xa(rollbackCode(e), e);
        }
    }

    @Override
    public void rollback(Xid xid) throws XAException {
        call("rollback", xid, "", () -> {
            if (!carries(xid)) {
                decideElsewhere(xid, false);
                return null;
            }
            try {
                session.rollback();
            } catch (DeriveException e) {
                abandonBranch();
                throw xa(XAException.XAER_RMERR, e);
            }
            clearBranch();
            return null;
        });
    }

    /** Completes a prepared branch this connection does not carry, through the database. */
    private void decideElsewhere(Xid xid, boolean commit) throws XAException {
        Database database = connection.database();
        try {
            if (commit) {
                database.commitInDoubt(branchId(xid));
            } else {
                database.rollbackInDoubt(branchId(xid));
            }
        } catch (DeriveException e) {
            throw xa(DeriveException.UNDEFINED_OBJECT.equals(e.code()) ? XAException.XAER_NOTA : XAException.XAER_RMFAIL, e);
        }
    }

    /**
     * XA: a scan starts with {@code TMSTARTRSCAN}; this one answers every prepared branch of the
     * database at once, so a continuing call ({@code TMNOFLAGS}, {@code TMENDRSCAN}) has none left.
     */
    @Override
    public Xid[] recover(int flags) throws XAException {
        return call("recover", null, flagNames(flags), () -> {
            if ((flags & ~(TMSTARTRSCAN | TMENDRSCAN)) != 0) {
                throw xa(XAException.XAER_INVAL, "unsupported recover flags " + flagNames(flags));
            }
            if ((flags & TMSTARTRSCAN) == 0) {
                return new Xid[0];
            }
            try {
                return connection.database().inDoubt().toArray(new Xid[0]);
            } catch (DeriveException e) {
                throw xa(XAException.XAER_RMERR, e);
            }
        });
    }

    @Override
    public void forget(Xid xid) throws XAException {
        call("forget", xid, "", () -> {
            // Derive never completes a branch heuristically, so there is never one to forget.
            throw xa(XAException.XAER_NOTA, "no heuristically completed branch");
        });
    }

    @Override
    public boolean isSameRM(XAResource other) throws XAException {
        // One resource manager per engine database: the adapter opens each database once.
        return other instanceof DeriveXAResource d && d.connection.database() == connection.database();
    }

    @Override
    public boolean setTransactionTimeout(int seconds) throws XAException {
        if (seconds < 0) {
            throw xa(XAException.XAER_INVAL, "negative timeout");
        }
        synchronized (connection) {
            timeoutSeconds = seconds;
        }
        return true;
    }

    @Override
    public int getTransactionTimeout() {
        synchronized (connection) {
            return timeoutSeconds;
        }
    }

    private void requireBranch(Xid xid) throws XAException {
        if (!carries(xid)) {
            throw xa(XAException.XAER_NOTA, "this connection carries no branch " + XaCallJournal.format(xid));
        }
    }

    private boolean carries(Xid xid) throws XAException {
        return branch != null && branch.equals(branchId(xid));
    }

    private static BranchId branchId(Xid xid) throws XAException {
        if (xid == null) {
            throw xa(XAException.XAER_INVAL, "null xid");
        }
        return BranchId.of(xid);
    }

    /** Refuses to commit a branch marked rollback-only or past its timeout, rolling it back. */
    private void checkCommittable() throws XAException {
        if (rollbackOnly || !session.inTransaction()) {
            abandonBranch();
            throw xa(XAException.XA_RBROLLBACK, "the branch was marked rollback-only");
        }
        if (timeoutSeconds > 0 && System.nanoTime() - branchStartNanos > timeoutSeconds * 1_000_000_000L) {
            abandonBranch();
            throw xa(XAException.XA_RBTIMEOUT, "the branch outlived its " + timeoutSeconds + " s timeout");
        }
    }

    private void abandonBranch() {
        try {
            session.rollback();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "rollback of an abandoned branch failed", e);
            connection.connectionFailed(e);
        }
        clearBranch();
    }

    private void clearBranch() {
        branch = null;
        state = null;
        rollbackOnly = false;
    }

    private static int rollbackCode(DeriveException e) {
        String code = e.code();
        if (DeriveException.CONSTRAINT.equals(code)) {
            return XAException.XA_RBINTEGRITY;
        }
        if (DeriveException.LOCK_TIMEOUT.equals(code)) {
            return XAException.XA_RBTIMEOUT;
        }
        return XAException.XA_RBROLLBACK;
    }

    private <T> T call(String operation, Xid xid, String detail, Call<T> body) throws XAException {
        String outcome = "ok";
        try {
            T result;
            synchronized (connection) {
                result = body.run();
            }
            if (result instanceof Integer vote) {
                outcome = vote == XA_RDONLY ? "XA_RDONLY" : "XA_OK";
            } else if (result instanceof Xid[] xids) {
                outcome = xids.length + " xids";
            }
            return result;
        } catch (XAException e) {
            outcome = codeName(e.errorCode) + ": " + e.getMessage();
            throw e;
        } catch (RuntimeException e) {
            outcome = "XAER_RMERR: " + e;
            connection.connectionFailed(e);
            throw xa(XAException.XAER_RMERR, e);
        } finally {
            XaCallJournal.Entry entry = XaCallJournal.forDatabase(connection.database().name())
                    .record(operation, xid, detail, outcome);
            LOG.log(Level.DEBUG, () -> "XA " + entry + " on " + connection);
        }
    }

    private static XAException xa(int code, String message) {
        XAException e = new XAException(message);
        e.errorCode = code;
        return e;
    }

    private static XAException xa(int code, Throwable cause) {
        XAException e = xa(code, cause.getMessage());
        e.initCause(cause);
        return e;
    }

    static String codeName(int code) {
        return switch (code) {
            case XAException.XA_RBROLLBACK -> "XA_RBROLLBACK";
            case XAException.XA_RBINTEGRITY -> "XA_RBINTEGRITY";
            case XAException.XA_RBTIMEOUT -> "XA_RBTIMEOUT";
            case XAException.XA_RBDEADLOCK -> "XA_RBDEADLOCK";
            case XAException.XA_HEURHAZ -> "XA_HEURHAZ";
            case XAException.XAER_NOTA -> "XAER_NOTA";
            case XAException.XAER_PROTO -> "XAER_PROTO";
            case XAException.XAER_INVAL -> "XAER_INVAL";
            case XAException.XAER_DUPID -> "XAER_DUPID";
            case XAException.XAER_OUTSIDE -> "XAER_OUTSIDE";
            case XAException.XAER_RMERR -> "XAER_RMERR";
            case XAException.XAER_RMFAIL -> "XAER_RMFAIL";
            default -> "XAException(" + code + ")";
        };
    }

    static String flagNames(int flags) {
        if (flags == TMNOFLAGS) {
            return "TMNOFLAGS";
        }
        List<String> names = new ArrayList<>();
        int[] bits = {TMJOIN, TMRESUME, TMSUCCESS, TMFAIL, TMSUSPEND, TMSTARTRSCAN, TMENDRSCAN, TMONEPHASE};
        String[] labels = {"TMJOIN", "TMRESUME", "TMSUCCESS", "TMFAIL", "TMSUSPEND", "TMSTARTRSCAN", "TMENDRSCAN", "TMONEPHASE"};
        int rest = flags;
        for (int i = 0; i < bits.length; i++) {
            if ((flags & bits[i]) != 0) {
                names.add(labels[i]);
                rest &= ~bits[i];
            }
        }
        if (rest != 0) {
            names.add("0x" + Integer.toHexString(rest));
        }
        return String.join("|", names);
    }
}
