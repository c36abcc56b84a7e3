package io.derive.rar;

import io.derive.engine.api.BranchId;
import io.derive.engine.api.Database;
import io.derive.engine.api.DeriveException;
import io.derive.engine.api.Session;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;

import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;

/**
 * The XA view of one managed connection: the association of its thread of control with at most
 * one branch at a time.
 *
 * <p>{@code start} finds or begins the {@link GlobalTransaction} of the branch's global
 * transaction id in the database's {@link GlobalTransactions}: the first branch of a global
 * transaction begins the engine transaction on this connection's session
 * ({@link Session#begin(Xid)}; on a durable database it rides on a Derby XA branch of the same
 * xid); a later branch of the same global transaction, on any connection, joins it, and so does
 * {@code TMJOIN} from another connection. {@code end} ends the association. {@code prepare},
 * {@code commit} and {@code rollback} find the branch by xid on whichever connection they are
 * called (XA: the transaction manager may complete a branch through any XAResource of the same
 * resource manager); a branch no live transaction has — one whose connection was destroyed after
 * prepare, or one a crashed process left in doubt — is decided through the {@link Database}, and
 * {@code recover} lists the database's prepared branches. Every call is journalled in
 * {@link XaCallJournal} and logged at DEBUG.
 */
final class DeriveXAResource implements XAResource {

    private static final Logger LOG = System.getLogger(DeriveXAResource.class.getName());

    private enum Association { ACTIVE, SUSPENDED, ENDED }

    @FunctionalInterface
    private interface Call<T> {
        T run() throws XAException;
    }

    private final DeriveManagedConnection connection;
    private final GlobalTransactions transactions;

    // Guarded by the managed connection's monitor.
    private BranchId branch;
    private Association association;
    private GlobalTransaction global;
    private boolean rolledBackWhileAssociated;
    private int timeoutSeconds;

    DeriveXAResource(DeriveManagedConnection connection, GlobalTransactions transactions) {
        this.connection = connection;
        this.transactions = transactions;
    }

    /**
     * The global transaction the connection's statements belong to, or null when they run on its
     * own session (autocommit or a local transaction). An association that was not yet ended when
     * its transaction was rolled back (a timeout, a rollback from the transaction manager's thread)
     * keeps answering with that transaction, whose statements then fail, until the connection
     * starts another branch or is cleaned up: the application thread may still be inside the JTA
     * transaction, and its statements must not autocommit. Called under the connection's monitor.
     */
    GlobalTransaction transactionOfStatements() {
        if (global != null && global.isFinished() && association == Association.ENDED && !rolledBackWhileAssociated) {
            clearAssociation();
        }
        return global;
    }

    /** Connectors spec (ManagedConnection.cleanup): the application's use of the connection is over. */
    void cleanup() {
        synchronized (connection) {
            if (global != null && global.isFinished()) {
                clearAssociation();
            }
        }
    }

    boolean hasBranch() {
        synchronized (connection) {
            return transactionOfStatements() != null;
        }
    }

    /**
     * The connection is being destroyed: a transaction whose engine work lives on its session is
     * parked (prepared) or rolled back with the session; an association it still has with another
     * connection's transaction can never end, so that transaction is marked rollback-only.
     */
    void connectionDestroyed() {
        synchronized (connection) {
            if (global == null) {
                return;
            }
            if (global.owner() == connection) {
                global.closeOwnerSession();
                transactions.forgetIfFinished(global);
            } else if (association != Association.ENDED) {
                global.dissociate(branch, true);
            }
            clearAssociation();
        }
    }

    @Override
    public void start(Xid xid, int flags) throws XAException {
        call("start", xid, XaCodes.flagNames(flags), true, () -> {
            BranchId key = branchId(xid);
            if (global != null && global.isFinished()) {
                clearAssociation();
            }
            if ((flags & TMRESUME) != 0) {
                if (branch == null || !branch.equals(key)) {
                    throw XaCodes.error(XAException.XAER_NOTA, "resume of a branch this connection does not carry");
                }
                if (association != Association.SUSPENDED) {
                    throw XaCodes.error(XAException.XAER_PROTO, "resume of a branch that is not suspended");
                }
                global.associate(key, false);
                association = Association.ACTIVE;
                return null;
            }
            if ((flags & TMJOIN) != 0) {
                join(key);
                return null;
            }
            if (flags != TMNOFLAGS) {
                throw XaCodes.error(XAException.XAER_INVAL, "unsupported start flags " + XaCodes.flagNames(flags));
            }
            if (branch != null) {
                throw branch.equals(key)
                        ? XaCodes.error(XAException.XAER_DUPID, "the branch is already started")
                        : XaCodes.error(XAException.XAER_PROTO, "the connection already carries branch " + branch);
            }
            if (connection.session().inTransaction()) {
                throw XaCodes.error(XAException.XAER_OUTSIDE, "a local transaction is open on this connection");
            }
            global = transactions.start(key, connection, timeoutSeconds);
            branch = key;
            association = Association.ACTIVE;
            return null;
        });
    }

    /** TMJOIN: this connection's thread of control joins a branch started here or on another connection. */
    private void join(BranchId key) throws XAException {
        if (branch != null && !branch.equals(key)) {
            throw XaCodes.error(XAException.XAER_PROTO, "the connection already carries branch " + branch);
        }
        if (branch != null) {
            if (association == Association.ACTIVE) {
                // XA: a join needs a branch this thread of control is not associated with now.
                throw XaCodes.error(XAException.XAER_PROTO, "join of a branch that is active on this connection");
            }
            global.associate(key, association == Association.ENDED);
            association = Association.ACTIVE;
            return;
        }
        GlobalTransaction found = transactions.find(key);
        if (found == null) {
            throw XaCodes.error(XAException.XAER_NOTA, "join of a branch no connection has started");
        }
        found.associate(key, true);
        global = found;
        branch = key;
        association = Association.ACTIVE;
    }

    @Override
    public void end(Xid xid, int flags) throws XAException {
        call("end", xid, XaCodes.flagNames(flags), true, () -> {
            BranchId key = branchId(xid);
            if (branch == null || !branch.equals(key)) {
                throw XaCodes.error(XAException.XAER_NOTA, "this connection carries no branch " + XaCallJournal.format(xid));
            }
            if (association != Association.ACTIVE && !(association == Association.SUSPENDED && (flags & TMSUSPEND) == 0)) {
                throw XaCodes.error(XAException.XAER_PROTO, "end of a branch in state " + association);
            }
            if ((flags & TMSUSPEND) != 0) {
                association = Association.SUSPENDED;
                return null;
            }
            association = Association.ENDED;
            global.dissociate(key, (flags & TMFAIL) != 0);
            if (global.isRolledBack()) {
                rolledBackWhileAssociated = true;
                global.reportRollback();
            }
            return null;
        });
    }

    @Override
    public int prepare(Xid xid) throws XAException {
        return call("prepare", xid, "", false, () -> {
            GlobalTransaction g = find(xid);
            if (g == null) {
                throw XaCodes.error(XAException.XAER_NOTA, "no live branch " + XaCallJournal.format(xid));
            }
            int vote;
            try {
                vote = g.prepare(branchId(xid));
            } finally {
                transactions.forgetIfFinished(g);
            }
            if (vote == XA_OK) {
                XaFaultHook.afterPrepare();
            }
            return vote;
        });
    }

    @Override
    public void commit(Xid xid, boolean onePhase) throws XAException {
        call("commit", xid, "onePhase=" + onePhase, false, () -> {
            GlobalTransaction g = find(xid);
            if (g == null) {
                if (onePhase) {
                    throw XaCodes.error(XAException.XAER_NOTA, "one-phase commit of a branch no live transaction has");
                }
                decideElsewhere(xid, true);
                return null;
            }
            if (!onePhase) {
                XaFaultHook.beforeCommit();
            }
            try {
                g.commit(branchId(xid), onePhase);
            } finally {
                transactions.forgetIfFinished(g);
            }
            return null;
        });
    }

    /**
     * Rolls back the branch's whole transaction. The transaction manager may call this from its
     * own thread (a transaction timeout) while the application thread is inside a statement.
     */
    @Override
    public void rollback(Xid xid) throws XAException {
        call("rollback", xid, "", false, () -> {
            GlobalTransaction g = find(xid);
            if (g == null) {
                decideElsewhere(xid, false);
                return null;
            }
            try {
                g.rollback(branchId(xid));
            } finally {
                transactions.forgetIfFinished(g);
            }
            return null;
        });
    }

    private GlobalTransaction find(Xid xid) throws XAException {
        return transactions.find(branchId(xid));
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
            throw XaCodes.error(XaCodes.decisionCode(e), e);
        }
    }

    /**
     * XA: a scan starts with {@code TMSTARTRSCAN}; this one answers every prepared branch of the
     * database at once, so a continuing call ({@code TMNOFLAGS}, {@code TMENDRSCAN}) has none left.
     */
    @Override
    public Xid[] recover(int flags) throws XAException {
        return call("recover", null, XaCodes.flagNames(flags), false, () -> {
            if ((flags & ~(TMSTARTRSCAN | TMENDRSCAN)) != 0) {
                throw XaCodes.error(XAException.XAER_INVAL, "unsupported recover flags " + XaCodes.flagNames(flags));
            }
            if ((flags & TMSTARTRSCAN) == 0) {
                return new Xid[0];
            }
            try {
                return connection.database().inDoubt().toArray(new Xid[0]);
            } catch (DeriveException e) {
                throw XaCodes.error(XAException.XAER_RMERR, e);
            }
        });
    }

    /**
     * XA: a branch an operator decided by hand (the transaction manager's log lost) is reported
     * as XA_HEURCOM / XA_HEURRB, and listed by {@code recover}, until the transaction manager
     * forgets it here.
     */
    @Override
    public void forget(Xid xid) throws XAException {
        call("forget", xid, "", false, () -> {
            try {
                connection.database().forgetHeuristic(branchId(xid));
            } catch (DeriveException e) {
                throw XaCodes.error(XaCodes.decisionCode(e), e);
            }
            return null;
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
            throw XaCodes.error(XAException.XAER_INVAL, "negative timeout");
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

    private static BranchId branchId(Xid xid) throws XAException {
        if (xid == null) {
            throw XaCodes.error(XAException.XAER_INVAL, "null xid");
        }
        return BranchId.of(xid);
    }

    /**
     * Runs one XA call, journalled; {@code onConnection} calls (start, end) change this
     * connection's association and run under its monitor; completion calls do not take it, so
     * that a rollback from the transaction manager's timeout thread never waits for it.
     */
    private <T> T call(String operation, Xid xid, String detail, boolean onConnection, Call<T> body) throws XAException {
        String outcome = "ok";
        try {
            T result;
            if (onConnection) {
                synchronized (connection) {
                    result = body.run();
                }
            } else {
                result = body.run();
            }
            if (result instanceof Integer vote) {
                outcome = vote == XA_RDONLY ? "XA_RDONLY" : "XA_OK";
            } else if (result instanceof Xid[] xids) {
                outcome = xids.length + " xids";
            }
            return result;
        } catch (XAException e) {
            outcome = XaCodes.codeName(e.errorCode) + ": " + e.getMessage();
            throw e;
        } catch (RuntimeException e) {
            outcome = "XAER_RMERR: " + e;
            connection.connectionFailed(e);
            throw XaCodes.error(XAException.XAER_RMERR, e);
        } finally {
            XaCallJournal.Entry entry = XaCallJournal.forDatabase(connection.database().name())
                    .record(operation, xid, detail, outcome);
            LOG.log(Level.DEBUG, () -> "XA " + entry + " on " + connection);
        }
    }

    private void clearAssociation() {
        branch = null;
        association = null;
        global = null;
        rolledBackWhileAssociated = false;
    }
}
