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
import java.util.concurrent.ThreadLocalRandom;

/**
 * One engine transaction: the table connections it registered, its working catalog, its
 * savepoints and the locks it holds.
 *
 * <p>A commit runs the checks deferred to commit ({@link #checkBeforePrepare}), stages the
 * catalog change and prepares every connection, then commits every connection, publishes the
 * catalog and runs the actions DDL left for commit (releasing dropped storage). In two phases
 * (XA), {@link #prepare()} does the first part and also makes every connection's changes
 * durable ({@link TableConnection#prepareDurably()}); {@link #commit()} alone is a one-phase
 * commit. {@link #rollback()} discards pending writes and the working catalog and runs the
 * actions DDL left for rollback (releasing storage created inside the transaction).
 *
 * <p>Each statement reads one committed snapshot ({@link Snapshots}), the one latest when
 * {@link #beginStatement()} opened it. A commit takes the next sequence number, lets every
 * connection publish under it, and only then completes it, catalog included; it becomes the
 * latest once every earlier number has completed, so that other statements see the whole commit
 * or none of it. Commits hold the publish locks of the tables they commit, so each table's
 * commits publish in sequence order while commits of disjoint tables publish side by side.
 *
 * <p>Locks ({@link LockTable}): a transaction that writes holds the catalog shared, one that
 * changes the schema holds it exclusive, so DDL runs alone. A write locks the row (or group, or
 * value) it changes exclusive and the table with intent; what a check or maintenance reads and
 * relies on is locked shared. Locks are held until the transaction ends; a commit releases them
 * once it has published, before it is visible. When a lock is granted after a conflicting
 * transaction committed later than the statement's snapshot, what the statement read may be
 * stale: {@link #lock} waits until that commit is visible and throws {@link StatementRestart},
 * and the statement runs again on a new snapshot, keeping the locks it has.
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
public final class Transaction implements LockOwner {
    private enum Phase { ACTIVE, PREPARED, ENDED }

    /** Row locks one transaction takes on one table before it locks the whole table instead (Derby's default threshold). */
    static final int ESCALATION_THRESHOLD = 5000;
    /**
     * The catalog lock is split in parts: a writer holds one part shared, chosen by the thread it
     * begins writing on (the threads of a pool keep apart, and a thread id costs nothing where an
     * identity hash of a new object calls into the VM), and a schema change holds every part
     * exclusive, taken in order; so writers, which all hold the catalog, do not all queue for one
     * lock's monitor, while a schema change still excludes them all. A power of two.
     */
    static final int CATALOG_PARTS = 16;
    private static final LockTable.Name[] CATALOG = new LockTable.Name[CATALOG_PARTS];
    /**
     * A table's lock is split the same way: a transaction that locks rows holds its intention on
     * one part, chosen by its thread, and one that locks the table shared or exclusive holds
     * every part, taken in order. Writers of one table's rows then meet on no lock they all take.
     */
    static final int TABLE_PARTS = 16;
    private static final TablePart[] TABLE = new TablePart[TABLE_PARTS];

    /** The key of a part of a table's lock (a row's lock has the row's key); its equality written out as {@link LockTable.Name}'s is. */
    private record TablePart(int part) {
        @Override
        public boolean equals(Object o) {
            return o instanceof TablePart other && part == other.part;
        }

        @Override
        public int hashCode() {
            return part;
        }
    }

    /** The part of a lock split in {@code parts} (a power of two) that the current thread's transactions take. */
    private static int threadPart(int parts) {
        return (int) Thread.currentThread().getId() & (parts - 1);
    }

    static {
        for (int i = 0; i < CATALOG_PARTS; i++) {
            CATALOG[i] = new LockTable.Name("catalog", i);
        }
        for (int i = 0; i < TABLE_PARTS; i++) {
            TABLE[i] = new TablePart(i);
        }
    }

    private final CommittedState shared;
    private final SessionResources session;
    private final String description;
    private final Holdings holdings = new Holdings();
    /**
     * This transaction's hash, by which the lock table's maps find it: an identity hash of a new
     * object is made by a call into the VM, and a transaction is new for every autocommit write.
     */
    private final int hash = ThreadLocalRandom.current().nextInt();
    private final BranchId branch;
    private final Cancellation cancellation;
    /** The fences this transaction heeds; null for one of the database's own sessions. */
    private final InDoubtFences fences;
    /** The views pending a deferred rehydrate this transaction heeds; null for one of the database's own sessions. */
    private final PendingRehydrates pendingRehydrates;
    /** The pending view this transaction refills ({@link #refilling}); null when none. */
    private TableSchema refilling;
    /** Sized for the few tables most transactions write: the default allocates a 64-slot table, and an autocommit write makes a transaction. */
    private final Map<HostedTable, TableConnection> connections = new IdentityHashMap<>(4);
    private final List<TableConnection> registrationOrder = new ArrayList<>();
    private final List<Runnable> onCommit = new ArrayList<>();
    private final List<Runnable> onRollback = new ArrayList<>();
    private final List<Runnable> commitChecks = new ArrayList<>();
    private final List<Mark> savepoints = new ArrayList<>();
    private Catalog workingCatalog;
    private Snapshots.Reading reading;
    private boolean writing;
    /** Per table this transaction locked rows or the whole of: its table-level lock, and how many row locks it took. */
    private final Map<HostedTable, TableLocks> tableLocks = new IdentityHashMap<>(4);
    private boolean reservedRowIds;
    /** The sequence number this transaction's commit became visible under, once it has. */
    private long publishedAs;
    private Phase phase = Phase.ACTIVE;

    private static final class TableLocks {
        LockMode mode;
        int rows;
        /** The part of the table's lock this transaction's intentions are held on. */
        final int part;

        TableLocks(LockMode mode, int part) {
            this.mode = mode;
            this.part = part;
        }
    }

    /** What a savepoint restores of the transaction's own state. */
    private record Mark(Catalog catalog, int onCommitSize, int onRollbackSize, int commitCheckSize) {
    }

    /** Whether it ended having written nothing: counted as committed, though it has nothing to publish. */
    private boolean endedReadOnly;

    /**
     * @param heedsFences false for a transaction of the database's own sessions (rehydrate, and
     *                    the restore of what in-doubt branches fenced once they are decided)
     */
    public Transaction(CommittedState shared, SessionResources session, String description, boolean heedsFences) {
        this.shared = shared;
        this.session = session;
        this.description = description;
        this.branch = session.branch() == null ? null : BranchId.of(session.branch());
        this.cancellation = new Cancellation(description, shared.heapPressure());
        this.fences = heedsFences ? shared.fences() : null;
        this.pendingRehydrates = heedsFences ? shared.pendingRehydrates() : null;
        shared.counters().begun();
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
        return reading != null ? reading.snapshot().catalog() : shared.catalog();
    }

    /** Opens the snapshot the statement starting now reads; {@link #endStatement()} closes it. */
    public void beginStatement() {
        endStatement();
        reading = shared.snapshots().open();
        session.reading(reading.sequence());
    }

    /**
     * Closes the statement's snapshot: reads outside a statement see the latest committed state.
     * A statement the heap stopped has let go of its rows by now.
     */
    public void endStatement() {
        if (reading != null) {
            shared.snapshots().close(reading);
            reading = null;
            session.reading(Long.MAX_VALUE);
        }
        cancellation.statementEnded();
    }

    /**
     * Replaces the working catalog (DDL). Takes the catalog exclusive first.
     *
     * @throws DeriveException {@link DeriveException#IN_DOUBT} when {@code next} drops, renames
     *         or redefines an object fenced for an in-doubt branch
     */
    public void changeCatalog(Catalog next) {
        if (fences != null) {
            fences.requireUnchanged(next);
            pendingRehydrates.requireUnchanged(next);
        }
        beginSchemaChange();
        workingCatalog = next;
    }

    /**
     * Marks this transaction as one that writes rows: it holds the catalog shared, so no schema
     * change commits under it.
     *
     * @throws DeriveException {@link DeriveException#LOCK_TIMEOUT} or {@link DeriveException#DEADLOCK}
     *         from the wait for a schema change to end
     */
    public void beginWrite() {
        requireActive();
        if (!writing) {
            lock(CATALOG[threadPart(CATALOG_PARTS)], () -> "the catalog", LockMode.SHARED);
            writing = true;
        }
    }

    /**
     * Marks this transaction as one that changes the schema or storage shared by every table
     * (indexes, backings): it holds the catalog exclusive, so it runs alone among writers.
     */
    public void beginSchemaChange() {
        requireActive();
        for (LockTable.Name part : CATALOG) {
            lock(part, () -> "the catalog", LockMode.EXCLUSIVE);
        }
        writing = true;
    }

    /**
     * Locks one row of {@code storage} (or a group or value keyed in its space) in {@code mode},
     * with the matching intention on the table; past {@link #ESCALATION_THRESHOLD} row locks on
     * one table it locks the table whole instead.
     *
     * @param key the row's key as {@code io.derive.engine.types.EqualityKey} folds it, so that
     *            keys equal under the table's collations name one lock
     * @throws StatementRestart when a transaction that conflicts committed after the statement's snapshot
     * @throws DeriveException  {@link DeriveException#LOCK_TIMEOUT}, {@link DeriveException#DEADLOCK}
     */
    public void lockRow(HostedTable storage, Object key, LockMode mode) {
        requireActive();
        TableLocks table = tableLocks.get(storage);
        LockMode intention = mode == LockMode.EXCLUSIVE ? LockMode.INTENT_EXCLUSIVE : LockMode.INTENT_SHARED;
        if (table != null && covers(table.mode, mode)) {
            return;
        }
        if (table == null || table.mode.join(intention) != table.mode) {
            lockTable(storage, intention);
            table = tableLocks.get(storage);
        }
        if (++table.rows > ESCALATION_THRESHOLD) {
            lockTable(storage, mode == LockMode.EXCLUSIVE ? LockMode.EXCLUSIVE : LockMode.SHARED);
            return;
        }
        lock(new LockTable.Name(storage, key), () -> "key " + key + " of " + storage.shape().qualifiedName(), mode);
    }

    /**
     * The row id for a new row of {@code storage} without one: one more than {@code largestSeen},
     * the largest this transaction sees, and than those other live transactions have given.
     *
     * @return {@link Long#MIN_VALUE} when the largest is {@link Long#MAX_VALUE}
     */
    public long nextRowId(HostedTable storage, long largestSeen) {
        reservedRowIds = true;
        return shared.rowIds().next(storage, this, largestSeen);
    }

    /** Locks the whole of {@code storage} in {@code mode} (an intention when rows follow). */
    public void lockTable(HostedTable storage, LockMode mode) {
        requireActive();
        TableLocks table = tableLocks.get(storage);
        LockMode wanted = table == null ? mode : table.mode.join(mode);
        if (table != null && wanted == table.mode) {
            return;
        }
        java.util.function.Supplier<String> label = () -> "table " + storage.shape().qualifiedName();
        int part = table == null ? threadPart(TABLE_PARTS) : table.part;
        if (wanted == LockMode.INTENT_SHARED || wanted == LockMode.INTENT_EXCLUSIVE) {
            lock(new LockTable.Name(storage, TABLE[part]), label, wanted);
        } else {
            for (TablePart each : TABLE) {
                lock(new LockTable.Name(storage, each), label, wanted);
            }
        }
        if (table == null) {
            tableLocks.put(storage, new TableLocks(wanted, part));
        } else {
            table.mode = wanted;
        }
    }

    /** Whether a table lock in {@code held} makes a row lock in {@code row} unnecessary. */
    private static boolean covers(LockMode held, LockMode row) {
        return held == LockMode.EXCLUSIVE || (held == LockMode.SHARED && row == LockMode.SHARED);
    }

    private void lock(LockTable.Name name, java.util.function.Supplier<String> label, LockMode mode) {
        long stamp = shared.locks().acquire(this, name, label, mode, shared.lockTimeout(), cancellation);
        if (reading != null && stamp > reading.sequence()) {
            // the commit may not be visible yet when its locks are released: the new snapshot must have it
            shared.snapshots().awaitVisible(stamp);
            throw new StatementRestart();
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
                pendingRehydrates.requireOpen(storage, reading == null ? Long.MAX_VALUE : reading.sequence(),
                        refilling == null ? null : refilling.storage());
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

    /**
     * Makes this transaction the refill of {@code view}, a materialized view pending a deferred
     * rehydrate ({@link PendingRehydrates}): it may then use the view's backing, and its commit
     * writes the view's stored definition as trusted (no longer in the durable stale set) with
     * its rows and lifts the view's fence; a rollback leaves the view pending for another refill.
     *
     * @throws DeriveException {@link DeriveException#OBJECT_NOT_READY} when the view is not
     *         pending; {@link DeriveException#OBJECT_IN_USE} when another transaction refills it
     */
    public void refilling(TableSchema view) {
        requireActive();
        if (refilling != null) {
            throw new IllegalStateException("a transaction refills one view");
        }
        shared.pendingRehydrates().claim(view, this);
        refilling = view;
        // Also on a rollback to a savepoint: a statement that restarts claims the view again.
        onRollback(() -> {
            shared.pendingRehydrates().release(view.storage(), this);
            refilling = null;
        });
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

    /** True once the transaction has begun to write (and so holds the catalog lock). */
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
        shared.counters().prepared();
        if (branch != null) {
            shared.branches().prepared(this);
        }
        return CommitVote.PREPARED;
    }

    private void prepareConnections() {
        // The checks read the latest committed state under the locks they take, not a statement's snapshot.
        endStatement();
        for (Runnable check : List.copyOf(commitChecks)) {
            check.run();
        }
        cancellation.seal();
        CatalogPersistence persistence = shared.persistence();
        if (writing && persistence != null) {
            persistence.writing();
        }
        if (workingCatalog != null && persistence != null) {
            persistence.stage(this, shared.catalog(), workingCatalog);
        }
        if (refilling != null && persistence != null) {
            persistence.refilled(this, refilling);
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
        commitDurably();
        List<PublishLock> publishLocks = shared.publishLocks(connections.keySet());
        publishLocks.forEach(PublishLock::lock);
        try {
            publish();
        } finally {
            publishLocks.forEach(PublishLock::unlock);
            // Locks are released at once; whoever takes one next waits until the commit is visible (lock()).
            if (publishedAs > 0) {
                end(publishedAs);
                if (session.knownVisible() < publishedAs) {
                    shared.snapshots().awaitVisible(publishedAs);
                    session.visible(publishedAs);
                }
            }
        }
    }

    /**
     * Makes the durable connections' commits durable before the commit takes its place in the
     * sequence, so that this slow part of commits runs side by side (see
     * {@link TableConnection#commitDurably()}). When nothing committed the transaction rolls
     * back, except a prepared branch, which stays prepared for its transaction manager to retry.
     */
    private void commitDurably() {
        int committed = 0;
        try {
            for (TableConnection c : registrationOrder) {
                if (c.commitsDurably()) {
                    c.commitDurably();
                    committed++;
                }
            }
        } catch (RuntimeException e) {
            if (committed == 0 && phase == Phase.PREPARED && branch != null) {
                throw e;
            }
            if (committed == 0) {
                rollback();
                throw e;
            }
            // Part of it is durable: publishing asks the failed connection again and publishes what committed.
        }
    }

    /**
     * Commits every connection under the next sequence number (taken when a host first asks for
     * it, {@link SessionResources#commitSequence()}) and completes the number whatever happens:
     * every number taken must complete, or no later commit becomes visible. Sets
     * {@link #publishedAs} when anything committed.
     */
    private void publish() {
        session.committing();
        List<TableConnection> order = new ArrayList<>(registrationOrder.size());
        for (TableConnection c : registrationOrder) {
            if (c.commitsDurably()) {
                order.add(c);
            }
        }
        for (TableConnection c : registrationOrder) {
            if (!c.commitsDurably()) {
                order.add(c);
            }
        }
        int committed = 0;
        boolean visible = false;
        Catalog published = null;
        try {
            for (TableConnection c : order) {
                c.stage();
            }
            for (TableConnection c : order) {
                c.commit();
                committed++;
            }
            published = workingCatalog;
            visible = true;
        } catch (RuntimeException e) {
            if (committed == 0 && !(phase == Phase.PREPARED && branch != null)) {
                rollback();
            }
            // What did commit stays committed: it becomes visible, under the catalog as it was.
            visible = committed > 0;
            throw e;
        } finally {
            long sequence = session.committed();
            if (visible) {
                publishedAs = sequence;
                if (refilling != null && committed == order.size()) {
                    // Before the commit becomes visible: a snapshot older than it still finds the view fenced.
                    shared.pendingRehydrates().refilled(refilling.storage(), sequence);
                } else if (refilling != null) {
                    // Part of the refill committed: the view stays pending, free for another refill.
                    shared.pendingRehydrates().release(refilling.storage(), this);
                }
            }
            session.visible(shared.snapshots().complete(sequence, published));
        }
        onCommit.forEach(Runnable::run);
    }

    /** Ends a transaction that wrote nothing; its commit still reports that it was canceled. */
    private void endReadOnly() {
        endedReadOnly = true;
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

    @Override
    public Holdings holdings() {
        return holdings;
    }

    /** Equal to itself only. */
    @Override
    public boolean equals(Object o) {
        return this == o;
    }

    @Override
    public int hashCode() {
        return hash;
    }

    private void end() {
        end(0);
    }

    /** Ends the transaction; {@code committedAs} is its commit's sequence number, 0 when it did not commit. */
    private void end(long committedAs) {
        if (phase != Phase.ENDED) {
            shared.counters().ended(committedAs != 0 ? TransactionCounters.Outcome.COMMITTED
                    : endedReadOnly || !writing ? TransactionCounters.Outcome.READ_ONLY : TransactionCounters.Outcome.ROLLED_BACK);
        }
        endStatement();
        if (branch != null && phase == Phase.PREPARED) {
            shared.branches().ended(this);
        }
        phase = Phase.ENDED;
        connections.clear();
        registrationOrder.clear();
        commitChecks.clear();
        writing = false;
        tableLocks.clear();
        if (reservedRowIds) {
            reservedRowIds = false;
            shared.rowIds().release(this);
        }
        shared.locks().releaseAll(this, committedAs, committedAs == 0 ? 0 : shared.snapshots().oldestReadBound());
    }

    private void requireActive() {
        if (phase != Phase.ACTIVE) {
            throw new DeriveException(DeriveException.TRANSACTION_STATE, phase == Phase.PREPARED
                    ? "the transaction is prepared; only commit or rollback may follow"
                    : "the transaction has already ended");
        }
    }
}
