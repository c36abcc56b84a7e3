package io.derive.rar;

import io.derive.engine.api.BranchId;

import java.util.HashMap;
import java.util.Map;
import java.util.Timer;

import javax.transaction.xa.XAException;

/**
 * The live global transactions of one database, by global transaction id: where a branch's
 * {@code start} finds the engine transaction it shares with the other branches of its global
 * transaction, and where {@code prepare}, {@code commit} and {@code rollback} find a branch
 * whichever connection they are called on (XA: the transaction manager may complete a branch
 * through any XAResource of the resource manager).
 *
 * <p>Lock order: a managed connection's monitor, then this registry's, then a
 * {@link GlobalTransaction}'s state monitor, which is never held across a statement (the registry
 * never takes a transaction's session lock, so it never waits for a running statement); a global
 * transaction never calls back into the registry, so callers {@link #forgetIfFinished forget} it
 * after a call returns.
 */
final class GlobalTransactions {

    private final Timer timeouts;
    // Keyed by the global transaction id alone: a BranchId with an empty qualifier.
    private final Map<BranchId, GlobalTransaction> byGlobalId = new HashMap<>();

    /** @param timeouts the timer that enforces branch timeouts; its tasks must be short */
    GlobalTransactions(Timer timeouts) {
        this.timeouts = timeouts;
    }

    /**
     * Starts branch {@code xid} for {@code connection}: a new branch of a live global transaction
     * joins its engine transaction; the first branch of a global transaction begins one on the
     * connection's session, with the connection's branch timeout.
     *
     * @throws XAException XAER_DUPID for a branch already started, XAER_PROTO when the global
     *                     transaction is already preparing, XAER_RMERR and the like when the
     *                     engine refuses to begin
     */
    synchronized GlobalTransaction start(BranchId xid, DeriveManagedConnection connection, int timeoutSeconds) throws XAException {
        BranchId global = globalId(xid);
        GlobalTransaction existing = byGlobalId.get(global);
        if (existing != null && existing.addBranch(xid)) {
            return existing;
        }
        GlobalTransaction started = GlobalTransaction.begin(xid, connection, timeoutSeconds, timeouts);
        byGlobalId.put(global, started);
        return started;
    }

    /** The live global transaction that has branch {@code xid}, or null. */
    synchronized GlobalTransaction find(BranchId xid) {
        GlobalTransaction g = byGlobalId.get(globalId(xid));
        return g != null && g.hasBranch(xid) ? g : null;
    }

    /** Drops {@code transaction} once it is finished and none of its branches awaits a call. */
    synchronized void forgetIfFinished(GlobalTransaction transaction) {
        if (transaction.isDone()) {
            byGlobalId.remove(globalId(transaction.carrier()), transaction);
        }
    }

    private static BranchId globalId(BranchId xid) {
        return new BranchId(xid.formatId(), xid.gtrid(), new byte[0]);
    }
}
