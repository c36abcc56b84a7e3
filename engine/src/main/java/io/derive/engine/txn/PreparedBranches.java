package io.derive.engine.txn;

import io.derive.engine.api.BranchId;

import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The prepared global-transaction branches of one database's live transactions, by xid, from
 * their {@link Transaction#prepare()} until commit or rollback decides them — so that a
 * transaction manager can decide a branch from any session, also after the session that
 * prepared it closed ({@link #park}).
 */
public final class PreparedBranches {
    private static final System.Logger LOG = System.getLogger(PreparedBranches.class.getName());

    /** A prepared transaction, and the resources of its closed session, closed once it is decided. */
    private record Prepared(Transaction transaction, AutoCloseable parkedWith) {
    }

    private final Map<BranchId, Prepared> byXid = new ConcurrentHashMap<>();

    void prepared(Transaction transaction) {
        byXid.put(transaction.branch(), new Prepared(transaction, null));
    }

    void ended(Transaction transaction) {
        byXid.computeIfPresent(transaction.branch(), (x, p) -> p.transaction() == transaction ? null : p);
    }

    /**
     * Keeps the prepared {@code transaction} of a closing session, with the session's host
     * resources, until it is decided; the resources are closed then.
     */
    public void park(Transaction transaction, AutoCloseable sessionResources) {
        byXid.computeIfPresent(transaction.branch(),
                (x, p) -> p.transaction() == transaction ? new Prepared(transaction, sessionResources) : p);
    }

    /** True while a live transaction has prepared the branch {@code xid}. */
    public boolean contains(BranchId xid) {
        return byXid.containsKey(xid);
    }

    /** The xids of the prepared branches, in no particular order. */
    public List<BranchId> xids() {
        return new ArrayList<>(byXid.keySet());
    }

    /**
     * Commits or rolls back the prepared branch {@code xid}.
     *
     * @return false when no live transaction carries that branch
     * @throws io.derive.engine.api.DeriveException when the commit fails; the branch then stays prepared
     */
    public boolean decide(BranchId xid, boolean commit) {
        Prepared p = byXid.get(xid);
        if (p == null) {
            return false;
        }
        synchronized (p.transaction()) {
            if (commit) {
                p.transaction().commit();
            } else {
                p.transaction().rollback();
            }
        }
        if (p.parkedWith() != null) {
            try {
                p.parkedWith().close();
            } catch (Exception e) {
                LOG.log(Level.WARNING, "closing the resources of decided branch " + xid + " failed", e);
            }
        }
        return true;
    }
}
