package io.derive.engine.txn;

import io.derive.engine.spi.HostSession;

import java.lang.System.Logger.Level;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

import javax.transaction.xa.Xid;

/** What hosts keep per engine session ({@link HostSession}), closed with the session. */
public final class SessionResources implements HostSession, AutoCloseable {
    private static final System.Logger LOG = System.getLogger(SessionResources.class.getName());

    private final String session;
    private final Map<Object, AutoCloseable> resources = new LinkedHashMap<>();
    private final Snapshots snapshots;
    private Xid branch;
    private long readSequence = Long.MAX_VALUE;
    /** The commit the session's transaction is publishing, 0 until a host asks for its number. */
    private long commitSequence;
    private boolean committing;
    /** A sequence this session has seen visible (the latest only grows): see {@link Snapshots#take}. */
    private long knownVisible;

    /** Resources of a session outside any database's snapshots: it reads the latest committed state. */
    public SessionResources(String session) {
        this(session, null);
    }

    public SessionResources(String session, Snapshots snapshots) {
        this.session = session;
        this.snapshots = snapshots;
    }

    @Override
    public <T extends AutoCloseable> T resource(Object key, Class<T> type, Supplier<? extends T> open) {
        AutoCloseable existing = resources.get(key);
        if (existing != null) {
            return type.cast(existing);
        }
        T created = open.get();
        resources.put(key, created);
        return created;
    }

    @Override
    public Xid branch() {
        return branch;
    }

    /** Sets the branch of the transaction the session starts now ({@code null}: a local one). */
    public void branch(Xid xid) {
        branch = xid;
    }

    @Override
    public long readSequence() {
        return readSequence;
    }

    /** Sets the snapshot the session's statement reads ({@link Long#MAX_VALUE}: the latest committed state). */
    void reading(long sequence) {
        readSequence = sequence;
        if (sequence != Long.MAX_VALUE) {
            visible(sequence);
        }
    }

    /** Sequence {@code sequence} is visible: the session remembers the newest it has seen. */
    void visible(long sequence) {
        knownVisible = Math.max(knownVisible, sequence);
    }

    /** The newest sequence the session has seen visible. */
    long knownVisible() {
        return knownVisible;
    }

    @Override
    public long commitSequence() {
        if (committing && commitSequence == 0) {
            commitSequence = snapshots.take(knownVisible);
        }
        return commitSequence;
    }

    /** The session's transaction starts to publish its commit: its number is taken when first asked for. */
    void committing() {
        committing = true;
        commitSequence = 0;
    }

    /** The commit has published: returns its number, taking one now if no host asked. */
    long committed() {
        long sequence = commitSequence();
        committing = false;
        return sequence;
    }

    @Override
    public long latestSequence() {
        return snapshots == null ? 0 : snapshots.latest().sequence();
    }

    @Override
    public long oldestReadSequence() {
        // the bound, not the exact answer: that reads every reader's slot, a cache miss for each busy one
        return snapshots == null ? Long.MAX_VALUE : snapshots.oldestReadBound();
    }

    @Override
    public long[] readSequences() {
        return snapshots == null ? new long[] {Long.MAX_VALUE} : snapshots.readSequences();
    }

    /** Closes every resource, in the order they were opened; a failure is logged and the rest still close. */
    @Override
    public void close() {
        for (AutoCloseable resource : resources.values()) {
            try {
                resource.close();
            } catch (Exception e) {
                LOG.log(Level.WARNING, "closing a host resource of " + session + " failed", e);
            }
        }
        resources.clear();
    }
}
