package io.derive.engine.spi;

import java.util.function.Supplier;

import javax.transaction.xa.Xid;

/**
 * The engine session a table connection is opened for. A host that keeps one resource per
 * session — the Derby host keeps one JDBC connection shared by all its tables, so that a
 * transaction over several of them is one atomic commit domain — keeps it here.
 *
 * <p>A session runs one transaction at a time, on one thread at a time; resources need no
 * synchronization of their own for the session's use.
 */
public interface HostSession {

    /**
     * This session's resource under {@code key}: the one created earlier for the key, else the
     * one {@code open} creates now, which the session then keeps.
     *
     * <p>The engine closes every resource when the session closes, after it has ended the
     * session's transaction; a failure to close is logged, not thrown.
     *
     * @param key  identifies the resource, typically the module instance (compared by {@code equals})
     * @param type the class the resource must have
     * @param open creates the resource; an exception it throws reaches the statement that needed it
     * @throws ClassCastException never for a key used with one type only
     */
    <T extends AutoCloseable> T resource(Object key, Class<T> type, Supplier<? extends T> open);

    /**
     * The global (XA) transaction branch the session's current transaction is, or {@code null}
     * for a local transaction. A host whose storage has a resource manager of its own carries its
     * part of such a transaction on a branch of that resource manager with this same xid, so
     * that after a crash its {@link TableModule#inDoubt()} lists the xid the transaction manager
     * logged; it reads this when the transaction first reaches it. {@code null} by default.
     */
    default Xid branch() {
        return null;
    }

    /**
     * The snapshot the session's current statement reads, as a commit sequence number: the state
     * every commit numbered up to it left, and nothing of later or uncommitted ones. A host
     * answers every read of the statement's connections from that state, under its own pending
     * writes. A key the transaction writes is locked by the engine first, and a statement whose
     * snapshot is older than the latest commit of a key it locks runs again on a newer one, so
     * that the committed row a host's write replaces is, in the snapshot, the latest one.
     * {@link Long#MAX_VALUE}, the default, stands for the latest committed state, for work
     * outside a statement.
     */
    default long readSequence() {
        return Long.MAX_VALUE;
    }

    /**
     * While the engine commits the session's transaction ({@link TableConnection#commit()}), the
     * sequence number the commit becomes visible under: a host publishes the commit's versions
     * under it, and statements whose {@link #readSequence()} is lower never see them. Numbers
     * grow by one per commit of the database. The number is taken when first asked for, and
     * commits numbered after it cannot become visible until it has published: a host does the
     * work of its commit first and asks last, just before it installs what it has built.
     * {@code 0}, the default, outside a database.
     */
    default long commitSequence() {
        return 0;
    }

    /**
     * The latest commit visible now: the snapshot a statement starting now would read. A
     * statement already running reads this one or an older one. {@code 0}, the default, outside
     * a database.
     */
    default long latestSequence() {
        return 0;
    }

    /**
     * The oldest snapshot any statement of the database still reads, or an older one (the
     * answer may lag a little behind, so that asking at every commit costs little): a host may
     * discard a version once a newer version of the same row or table is at or before this
     * number.
     * {@link Long#MAX_VALUE}, the default, when only the latest state is ever read.
     */
    default long oldestReadSequence() {
        return Long.MAX_VALUE;
    }

    /**
     * The snapshots statements read, finer than {@link #oldestReadSequence()}: ascending
     * sequence numbers, never empty, whose last is at least as new as every snapshot not listed.
     * A host must keep, for each number, its newest version at or before it, and every version
     * newer than the last; the versions between two listed numbers no statement reads, so a host
     * may discard them although they are newer than the oldest read. Exact when asked, so it
     * costs a look at every reader: a host asks when it prunes, not at every commit.
     * The default lists {@link #oldestReadSequence()} alone, which keeps every version after it.
     */
    default long[] readSequences() {
        return new long[] {oldestReadSequence()};
    }

    /** A session that keeps nothing: each call opens a new resource and nothing is ever closed. For tests of a host alone. */
    HostSession DETACHED = new HostSession() {
        @Override
        public <T extends AutoCloseable> T resource(Object key, Class<T> type, Supplier<? extends T> open) {
            return open.get();
        }
    };
}
