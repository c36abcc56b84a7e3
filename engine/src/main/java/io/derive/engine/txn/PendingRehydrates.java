package io.derive.engine.txn;

import io.derive.engine.api.DeriveException;
import io.derive.engine.schema.Catalog;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.spi.HostedTable;

import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The materialized views a durable database opened in deferred rehydrate mode left to be
 * refilled by {@code rehydrate materialized view}: registered with their derivation but not
 * filled, their backings holding rows nobody may trust. Until its refill commits, a transaction
 * of the database's users may neither read such a view nor write it through maintenance (a
 * write to a source that reaches it), nor change its definition; it fails at once with
 * {@link DeriveException#OBJECT_NOT_READY}, never waits. The database's own sessions are not
 * fenced, as for {@link InDoubtFences}.
 *
 * <p>Writes to a pending view's sources are refused rather than accepted because a refill reads
 * its body over a snapshot and rewrites the backing as a whole: to accept them, it would have to
 * capture the deltas committed while it runs and replay them, which it does not.
 *
 * <p>A refill claims its view ({@link #claim}), so that a second refill of it fails instead of
 * refilling it twice; its commit lifts the fence under the commit's sequence number, before that
 * commit becomes visible, so that a statement whose snapshot is older than the refill — and
 * would read the untrusted rows — still fails. Every registration of a connection reads this
 * state, so it is kept in immutable maps replaced whole.
 */
public final class PendingRehydrates {

    /**
     * @param object    the view as the committed catalog held it when it was left pending
     * @param reason    why it must be refilled, as the rehydrate report says it
     * @param claimedBy the transaction refilling it; null while none does
     */
    public record Pending(TableSchema object, String reason, Transaction claimedBy) {
    }

    private volatile Map<HostedTable, Pending> pending = Map.of();
    /** Per view refilled, the commit sequence number its refill published under. */
    private volatile Map<HostedTable, Long> refilledAt = Map.of();

    /** {@code materialized view 'main.v' is being rehydrated…}: what a statement that needs a pending view fails with. */
    public static String beingRehydrated(TableSchema view) {
        return "materialized view '" + view.qualifiedName() + "' is being rehydrated: it answers once"
                + " rehydrate materialized view " + view.qualifiedName() + " has refilled it";
    }

    /** Leaves {@code view} pending: it is fenced until a refill of it commits. */
    public synchronized void pending(TableSchema view, String reason) {
        Map<HostedTable, Pending> next = new IdentityHashMap<>(pending);
        next.put(view.storage(), new Pending(view, reason, null));
        pending = next;
    }

    /** The views still pending (claimed or not), in no particular order. */
    public List<Pending> all() {
        return List.copyOf(pending.values());
    }

    /** How many views are still pending. */
    public int count() {
        return pending.size();
    }

    /** Whether the view stored in {@code storage} is still pending. */
    public boolean isPending(HostedTable storage) {
        return pending.containsKey(storage);
    }

    /**
     * Claims the pending view {@code view} for {@code refill}'s transaction.
     *
     * @throws DeriveException {@link DeriveException#OBJECT_NOT_READY} when it is not pending;
     *         {@link DeriveException#OBJECT_IN_USE} when another transaction refills it
     */
    synchronized void claim(TableSchema view, Transaction refill) {
        Pending p = pending.get(view.storage());
        if (p == null) {
            throw new DeriveException(DeriveException.OBJECT_NOT_READY, "materialized view '" + view.qualifiedName()
                    + "' is not being rehydrated: it is readable as it is");
        }
        if (p.claimedBy() != null && p.claimedBy() != refill) {
            throw new DeriveException(DeriveException.OBJECT_IN_USE, "materialized view '" + view.qualifiedName()
                    + "' is already being rehydrated by another session");
        }
        replace(view.storage(), new Pending(p.object(), p.reason(), refill));
    }

    /** The refill that claimed the view in {@code storage} rolled back: the view is pending and unclaimed again. */
    synchronized void release(HostedTable storage, Transaction refill) {
        Pending p = pending.get(storage);
        if (p != null && p.claimedBy() == refill) {
            replace(storage, new Pending(p.object(), p.reason(), null));
        }
    }

    /** The refill of the view in {@code storage} committed under {@code sequence}: the view is no longer pending. */
    synchronized void refilled(HostedTable storage, long sequence) {
        Map<HostedTable, Pending> next = new IdentityHashMap<>(pending);
        next.remove(storage);
        Map<HostedTable, Long> at = new IdentityHashMap<>(refilledAt);
        at.put(storage, sequence);
        refilledAt = at;
        pending = next;
    }

    private void replace(HostedTable storage, Pending p) {
        Map<HostedTable, Pending> next = new IdentityHashMap<>(pending);
        next.put(storage, p);
        pending = next;
    }

    /**
     * @param reading the commit sequence number the asking statement's snapshot reads
     * @param refill  the storage the asking transaction refills (it may use it); null when none
     * @throws DeriveException {@link DeriveException#OBJECT_NOT_READY} when {@code storage} is a
     *         pending view's, or a view refilled by a commit newer than {@code reading}
     */
    void requireOpen(HostedTable storage, long reading, HostedTable refill) {
        if (storage == refill) {
            return;
        }
        Pending p = pending.get(storage);
        if (p != null) {
            throw new DeriveException(DeriveException.OBJECT_NOT_READY, beingRehydrated(p.object()));
        }
        Long at = refilledAt.get(storage);
        if (at != null && reading < at) {
            throw new DeriveException(DeriveException.OBJECT_NOT_READY, "materialized view '" + storage.shape().schema()
                    + "." + storage.shape().name() + "' was rehydrated after this statement's snapshot was taken: retry it");
        }
    }

    /**
     * @throws DeriveException {@link DeriveException#OBJECT_NOT_READY} when {@code next} drops,
     *         renames or redefines a pending view
     */
    void requireUnchanged(Catalog next) {
        for (Pending p : pending.values()) {
            if (next.tableByKey(p.object().key()).orElse(null) != p.object()) {
                throw new DeriveException(DeriveException.OBJECT_NOT_READY, beingRehydrated(p.object()));
            }
        }
    }
}
