package io.derive.engine.txn;

import io.derive.engine.api.BranchId;
import io.derive.engine.api.DeriveException;
import io.derive.engine.schema.Catalog;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.spi.HostedTable;

import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The tables and materialized views of a database that wait for the outcome of in-doubt
 * branches a process that ended left prepared: what those branches wrote, and the views over it.
 * A transaction of the database's users may neither read nor write a fenced object (its first
 * {@link Transaction#connection} to it fails) nor change its definition
 * ({@link Transaction#changeCatalog}); it fails at once with {@link DeriveException#IN_DOUBT},
 * before any host is asked, so it never waits for the locks the host keeps for such a branch.
 * The database's own sessions, which restore these objects once their branches are decided, are
 * not fenced.
 *
 * <p>Fences are set when the database opens and lifted as branches are decided; every
 * registration of a connection reads them, so they are kept in an immutable map replaced whole.
 */
public final class InDoubtFences {

    /**
     * @param object     the table or materialized view, as the committed catalog held it when fenced
     * @param waitingFor the branches it waits for; empty for a fence no decision lifts
     * @param message    what a statement that needs it fails with
     */
    private record Fence(TableSchema object, Set<BranchId> waitingFor, String message) {
    }

    private volatile Map<HostedTable, Fence> byStorage = Map.of();

    /**
     * Fences {@code object} until every branch of {@code waitingFor} is {@linkplain #lift lifted};
     * statements that need it fail with {@code <kind> '<name>' waits for the outcome of in-doubt
     * transaction <xid>} followed by {@code because} (e.g. {@code , which wrote it}).
     */
    public synchronized void fence(TableSchema object, Set<BranchId> waitingFor, String because) {
        put(object, waitingFor, kind(object) + " '" + object.qualifiedName() + "' " + waitsFor(waitingFor) + because);
    }

    /** {@code waits for the outcome of in-doubt transaction X} (or {@code transactions X, Y}), as messages say it. */
    public static String waitsFor(Set<BranchId> xids) {
        return "waits for the outcome of in-doubt transaction" + (xids.size() == 1 ? " " : "s ")
                + xids.stream().map(BranchId::toString).collect(Collectors.joining(", "));
    }

    /** Fences {@code object} for as long as the database stays open: statements that need it fail with {@code message}. */
    public synchronized void fenceUntilReopen(TableSchema object, String message) {
        put(object, Set.of(), message);
    }

    private void put(TableSchema object, Set<BranchId> waitingFor, String message) {
        Map<HostedTable, Fence> next = new IdentityHashMap<>(byStorage);
        next.put(object.storage(), new Fence(object, Set.copyOf(waitingFor), message));
        byStorage = next;
    }

    /** Branch {@code xid} is decided: the objects that waited for it alone are no longer fenced. */
    public synchronized void lift(BranchId xid) {
        Map<HostedTable, Fence> next = new IdentityHashMap<>();
        byStorage.forEach((storage, fence) -> {
            if (!fence.waitingFor().contains(xid)) {
                next.put(storage, fence);
            } else if (fence.waitingFor().size() > 1) {
                Set<BranchId> rest = new LinkedHashSet<>(fence.waitingFor());
                rest.remove(xid);
                next.put(storage, new Fence(fence.object(), rest, fence.message()));
            }
        });
        byStorage = next;
    }

    /** @throws DeriveException {@link DeriveException#IN_DOUBT} when {@code storage} is fenced */
    void requireOpen(HostedTable storage) {
        Fence fence = byStorage.get(storage);
        if (fence != null) {
            throw new DeriveException(DeriveException.IN_DOUBT, fence.message());
        }
    }

    /**
     * @throws DeriveException {@link DeriveException#IN_DOUBT} when {@code next} drops, renames or
     *         redefines a fenced object
     */
    void requireUnchanged(Catalog next) {
        Fence redefined = null;
        for (Fence fence : byStorage.values()) {
            TableSchema now = next.tableByKey(fence.object().key()).orElse(null);
            if (now == null) {
                // Dropped or renamed: the object the statement names, rather than a view whose body it rewrites.
                throw new DeriveException(DeriveException.IN_DOUBT, fence.message());
            }
            if (now != fence.object() && redefined == null) {
                redefined = fence;
            }
        }
        if (redefined != null) {
            throw new DeriveException(DeriveException.IN_DOUBT, redefined.message());
        }
    }

    private static String kind(TableSchema object) {
        return object.isMaintained() ? "materialized view" : "table";
    }
}
