package io.derive.engine.txn;

import io.derive.engine.api.BranchId;
import io.derive.engine.api.CommitVote;
import io.derive.engine.api.DeriveException;
import io.derive.engine.schema.Catalog;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.spi.HostSession;
import io.derive.engine.spi.HostedTable;
import io.derive.engine.spi.TableConnection;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One engine transaction: the table connections it registered, its working catalog, its
 * savepoints and the write lock once it writes.
 *
 * <p>A commit runs the checks deferred to commit ({@link #checkBeforePrepare}), stages the
 * catalog change and prepares every connection, then commits every connection, publishes the
 * catalog and runs the actions DDL left for commit (releasing dropped storage). In two phases
 * (XA), {@link #prepare()} does the first part and also makes every connection's changes
 * durable ({@link TableConnection#prepareDurably()}); {@link #commit()} alone is a one-phase
 * commit. {@link #rollback()} discards pending writes and the working catalog and runs the
 * actions DDL left for rollback (releasing storage created inside the transaction).
 *
 * <p>Each statement reads one committed snapshot ({@link Snapshots}), opened by
 * {@link #beginStatement()}: the one latest when it started, or, once the transaction holds the
 * write lock, the latest one, which then cannot move. A commit takes the next sequence number,
 * lets every connection publish under it, and only then makes it the latest, catalog included,
 * so that other statements see the whole commit or none of it.
 *
 * <p>A transaction whose session carries a {@linkplain HostSession#branch() branch} is listed in
 * its database's {@link PreparedBranches} from a successful {@link #prepare()} until it ends.
 *
 * <p>Its {@link Cancellation} may be set from another thread while it runs; its statements stop
 * at their next row, and {@link #prepare()} and {@link #commit()} of a canceled transaction fail
 * and roll it back.
 *
 * <p>A transaction of the database's users heeds its {@link InDoubtFences}: it cannot use or
 * redefine what waits for an in-doubt branch.
 */
public final class Transaction {
    private enum Phase { ACTIVE, PREPARED, ENDED }

    private final CommittedState shared;
    private final SessionResources session;
    private final String description;
    private final BranchId branch;
    private final Cancellation cancellation;
    /** The fences this transaction heeds; null for one of the database's own sessions. */
    private final InDoubtFences fences;
    private final Map<HostedTable, TableConnection> connections = new IdentityHashMap<>();
    private final List<TableConnection> registrationOrder = new ArrayList<>();
    private final List<Runnable> onCommit = new ArrayList<>();
    private final List<Runnable> onRollback = new ArrayList<>();
    private final List<Runnable> commitChecks = new ArrayList<>();
    private final List<Mark> savepoints = new ArrayList<>();
    private Catalog workingCatalog;
    private Snapshots.Snapshot snapshot;
    private boolean writing;
    private Phase phase = Phase.ACTIVE;

    /** What a savepoint restores of the transaction's own state. */
    private record Mark(Catalog catalog, int onCommitSize, int onRollbackSize, int commitCheckSize) {
    }

    /**
     * @param heedsFences false for a transaction of the database's own sessions (rehydrate, and
     *                    the restore of what in-doubt branches fenced once they are decided)
     */
    public Transaction(CommittedState shared, SessionResources session, String description, boolean heedsFences) {
        this.shared = shared;
        this.session = session;
        this.description = description;
        this.branch = session.branch() == null ? null : BranchId.of(session.branch());
        this.cancellation = new Cancellation(description);
        this.fences = heedsFences ? shared.fences() : null;
    }

    /** Whether this transaction was canceled; the one part of it that other threads may touch. */
    public Cancellation cancellation() {
        return cancellation;
    }

    /** The global-transaction branch this transaction is, or {@code null} for a local one. */
    public BranchId branch() {
        return branch;
    }

    /** The schema this transaction sees: its own DDL, else its statement's snapshot, else the latest committed catalog. */
    public Catalog catalog() {
        if (workingCatalog != null) {
            return workingCatalog;
        }
        return snapshot != null ? snapshot.catalog() : shared.catalog();
    }

    /** Opens the snapshot the statement starting now reads; {@link #endStatement()} closes it. */
    public void beginStatement() {
        endStatement();
        snapshot = shared.snapshots().open();
        session.reading(snapshot.sequence());
    }

    /** Closes the statement's snapshot: reads outside a statement see the latest committed state. */
    public void endStatement() {
        if (snapshot != null) {
            shared.snapshots().close(snapshot);
            snapshot = null;
            session.reading(Long.MAX_VALUE);
        }
    }

    /**
     * Replaces the working catalog (DDL). Takes the write lock first.
     *
     * @throws DeriveException {@link DeriveException#IN_DOUBT} when {@code next} drops, renames
     *         or redefines an object fenced for an in-doubt branch
     */
    public void changeCatalog(Catalog next) {
        if (fences != null) {
            fences.requireUnchanged(next);
        }
        beginWrite();
        workingCatalog = next;
    }

    /** Takes the database write lock if this transaction does not hold it yet. */
    public void beginWrite() {
        requireActive();
        if (!writing) {
            shared.writeLock().acquire(this, shared.writeLockTimeout());
            writing = true;
            if (snapshot != null) {
                // Commits may have landed while this statement waited; none can land now.
                beginStatement();
            }
        }
    }

    /**
     * The connection of this transaction to a table, registered at first use.
     *
     * @throws DeriveException {@link DeriveException#IN_DOUBT} when the table is fenced for an
     *         in-doubt branch
     */
    public TableConnection connection(TableSchema table) {
        return connection(table.storage());
    }

    /** @see #connection(TableSchema) */
    public TableConnection connection(HostedTable storage) {
        requireActive();
        TableConnection c = connections.get(storage);
        if (c == null) {
            if (fences != null) {
                fences.requireOpen(storage);
            }
            c = storage.connect(session);
            for (int depth = 1; depth <= savepoints.size(); depth++) {
                c.savepoint(depth);
            }
            connections.put(storage, c);
            registrationOrder.add(c);
        }
        return c;
    }

    /** The connection this transaction registered to {@code storage}, if it has one; registers none. */
    public Optional<TableConnection> registered(HostedTable storage) {
        return Optional.ofNullable(connections.get(storage));
    }

    /** Runs when this transaction commits (after its connections have). */
    public void onCommit(Runnable action) {
        onCommit.add(action);
    }

    /** Runs when this transaction rolls back, or when a savepoint taken before it is rolled back to. */
    public void onRollback(Runnable action) {
        onRollback.add(action);
    }

    /**
     * A check deferred to commit (a constraint evaluated against the transaction's final state):
     * it runs in {@link #prepare()}, in registration order, before any connection prepares; one
     * that throws rolls the whole transaction back and the error is the commit's. A rollback to a
     * savepoint taken before it discards it, with the work it was about.
     */
    public void checkBeforePrepare(Runnable check) {
        requireActive();
        commitChecks.add(check);
    }

    /** Opens a savepoint and returns its depth (1 for the outermost). */
    public int savepoint() {
        requireActive();
        savepoints.add(new Mark(workingCatalog, onCommit.size(), onRollback.size(), commitChecks.size()));
        int depth = savepoints.size();
        for (TableConnection c : registrationOrder) {
            c.savepoint(depth);
        }
        return depth;
    }

    /** Forgets the savepoint at {@code depth} and those inside it, keeping their work. */
    public void release(int depth) {
        for (TableConnection c : registrationOrder) {
            c.releaseSavepoint(depth);
        }
        while (savepoints.size() >= depth) {
            savepoints.remove(savepoints.size() - 1);
        }
    }

    /** Undoes everything since the savepoint at {@code depth}; the savepoint stays open. */
    public void rollbackTo(int depth) {
        Mark mark = savepoints.get(depth - 1);
        for (TableConnection c : registrationOrder) {
            c.rollbackToSavepoint(depth);
        }
        for (int i = onRollback.size() - 1; i >= mark.onRollbackSize(); i--) {
            onRollback.remove(i).run();
        }
        onCommit.subList(mark.onCommitSize(), onCommit.size()).clear();
        commitChecks.subList(mark.commitCheckSize(), commitChecks.size()).clear();
        workingCatalog = mark.catalog();
        while (savepoints.size() > depth) {
            savepoints.remove(savepoints.size() - 1);
        }
    }

    /** True once the transaction has written (and so holds the write lock). */
    public boolean hasWritten() {
        return writing;
    }

    /**
     * The first phase of a two-phase commit: runs the checks deferred to commit, stages the
     * catalog change, then prepares every registered connection and makes its changes durable.
     *
     * @return {@link CommitVote#READ_ONLY} (and ends the transaction) when nothing was written
     * @throws RuntimeException what a check or a connection threw, or the transaction's
     *         cancellation; the transaction has rolled back
     */
    public CommitVote prepare() {
        requireActive();
        if (!writing) {
            endReadOnly();
            return CommitVote.READ_ONLY;
        }
        try {
            prepareConnections();
            for (TableConnection c : List.copyOf(registrationOrder)) {
                c.prepareDurably();
            }
        } catch (RuntimeException e) {
            rollback();
            throw e;
        }
        phase = Phase.PREPARED;
        if (branch != null) {
            shared.branches().prepared(this);
        }
        return CommitVote.PREPARED;
    }

    private void prepareConnections() {
        for (Runnable check : List.copyOf(commitChecks)) {
            check.run();
        }
        cancellation.seal();
        CatalogPersistence persistence = shared.persistence();
        if (workingCatalog != null && persistence != null) {
            persistence.stage(this, shared.catalog(), workingCatalog);
        }
        for (TableConnection c : List.copyOf(registrationOrder)) {
            c.prepare();
        }
    }

    /**
     * Commits: after {@link #prepare()} the second phase, else a one-phase commit, which runs
     * the first phase's checks and connection prepares but makes nothing durable ahead of the
     * commit. Durable connections ({@link TableConnection#commitsDurably()}) commit first: when
     * one of them fails, nothing has been published and the transaction rolls back as a whole —
     * except a prepared branch, which stays prepared for the transaction manager to retry.
     */
    public void commit() {
        if (phase == Phase.ENDED) {
            throw new DeriveException(DeriveException.TRANSACTION_STATE, "the transaction has already ended");
        }
        if (phase == Phase.ACTIVE) {
            if (!writing) {
                endReadOnly();
                return;
            }
            try {
                prepareConnections();
            } catch (RuntimeException e) {
                rollback();
                throw e;
            }
        }
        long sequence = shared.snapshots().nextSequence();
        session.committing(sequence);
        List<TableConnection> order = new ArrayList<>(registrationOrder.size());
        registrationOrder.stream().filter(TableConnection::commitsDurably).forEach(order::add);
        registrationOrder.stream().filter(c -> !c.commitsDurably()).forEach(order::add);
        int committed = 0;
        try {
            for (TableConnection c : order) {
                c.commit();
                committed++;
            }
        } catch (RuntimeException e) {
            if (committed == 0 && phase == Phase.PREPARED && branch != null) {
                throw e;
            }
            if (committed == 0) {
                rollback();
            } else {
                // What did commit stays committed: it becomes visible, under the catalog as it was.
                shared.snapshots().publish(new Snapshots.Snapshot(sequence, shared.catalog()));
                end();
            }
            throw e;
        }
        try {
            shared.snapshots().publish(new Snapshots.Snapshot(sequence,
                    workingCatalog != null ? workingCatalog : shared.catalog()));
            onCommit.forEach(Runnable::run);
        } finally {
            end();
        }
    }

    /** Ends a transaction that wrote nothing; its commit still reports that it was canceled. */
    private void endReadOnly() {
        rollback();
        cancellation.seal();
    }

    /** Rolls back; does nothing when the transaction has already ended. */
    public void rollback() {
        if (phase == Phase.ENDED) {
            return;
        }
        try {
            for (TableConnection c : registrationOrder) {
                c.rollback();
            }
            for (int i = onRollback.size() - 1; i >= 0; i--) {
                onRollback.get(i).run();
            }
        } finally {
            end();
        }
    }

    public boolean isActive() {
        return phase == Phase.ACTIVE;
    }

    /** True between a successful {@link #prepare()} and the end of the transaction. */
    public boolean isPrepared() {
        return phase == Phase.PREPARED;
    }

    /** How lock-wait errors name this transaction. */
    public String description() {
        return description;
    }

    private void end() {
        endStatement();
        if (branch != null && phase == Phase.PREPARED) {
            shared.branches().ended(this);
        }
        phase = Phase.ENDED;
        connections.clear();
        registrationOrder.clear();
        commitChecks.clear();
        if (writing) {
            writing = false;
            shared.writeLock().release(this);
        }
    }

    private void requireActive() {
        if (phase != Phase.ACTIVE) {
            throw new DeriveException(DeriveException.TRANSACTION_STATE, phase == Phase.PREPARED
                    ? "the transaction is prepared; only commit or rollback may follow"
                    : "the transaction has already ended");
        }
    }
}
