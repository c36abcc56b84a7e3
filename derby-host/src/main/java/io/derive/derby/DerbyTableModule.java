package io.derive.derby;

import io.derive.engine.api.BranchId;
import io.derive.engine.api.DeriveException;
import io.derive.engine.spi.HostSession;
import io.derive.engine.spi.HostedTable;
import io.derive.engine.spi.TableModule;
import io.derive.engine.spi.TableShape;
import io.derive.engine.types.Collation;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.PriorityBlockingQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

import javax.transaction.xa.Xid;

/**
 * The {@code derby} host: tables stored in an embedded Apache Derby database, one Derby table per
 * engine table ({@link DerbyTable}), one Derby connection per engine session shared by all of
 * them ({@link DerbySession}), so that a transaction over several Derby tables is one atomic
 * Derby transaction.
 *
 * <p>The no-argument constructor (the one {@link java.util.ServiceLoader} uses) stores the tables
 * in memory, discarded when the engine database closes; {@link #inDirectory(Path)} stores them on
 * disk, in a Derby database of their own.
 *
 * <p>Storage DDL ({@code create table}, index tables) runs in autocommit on a connection of its
 * own and is undone by the engine's compensation (a drop) when the creating transaction rolls
 * back; rows are only ever written inside session transactions.
 */
public final class DerbyTableModule implements TableModule {
    private static final Duration DEFAULT_LOCK_TIMEOUT = Duration.ofSeconds(10);

    private static final AtomicLong SCRATCH_STORES = new AtomicLong();
    private static final Map<Long, EmbeddedDerbyDatabase> SCRATCH = new HashMap<>();

    private final Supplier<EmbeddedDerbyDatabase> opener;
    private final boolean scratch;
    private final Duration lockTimeout;
    private final boolean aggregatesInDerby;
    private DerbyStore store;
    private DetachedIndexes detached;
    private InDoubtManifest manifest;
    /** Reopened tables that in-doubt branches of an ended process wrote, until the last of those completes. */
    private final List<DerbyTable> awaitingOutcome = new ArrayList<>();
    /** The session transactions that have written to this host and not yet ended. */
    private final Set<DerbyTransaction> writers = ConcurrentHashMap.newKeySet();
    /** Statements the session connections ran, and those of the stores this module has closed. */
    private final AtomicLong statements = new AtomicLong();
    private final AtomicLong aggregates = new AtomicLong();
    /** The flushes of commits whose before-images some snapshot may still read, oldest first. */
    private final PriorityBlockingQueue<Flush> committedFlushes = new PriorityBlockingQueue<>(16, Comparator.comparingLong(Flush::sequence));
    /** Held by the one commit that retires old flushes; the others leave it to that one. */
    private final ReentrantLock retiring = new ReentrantLock();

    /**
     * Tables in memory, discarded when the engine database closes. They live in Derby schemas of
     * their own inside one in-memory Derby database the JVM's in-memory modules share (one per
     * lock timeout, a database-wide Derby setting), booted once: booting Derby costs far more
     * than creating a few tables.
     */
    public DerbyTableModule() {
        this(null, true, DEFAULT_LOCK_TIMEOUT, true);
    }

    private DerbyTableModule(Supplier<EmbeddedDerbyDatabase> opener, boolean scratch, Duration lockTimeout, boolean aggregatesInDerby) {
        this.opener = opener;
        this.scratch = scratch;
        this.lockTimeout = lockTimeout;
        this.aggregatesInDerby = aggregatesInDerby;
    }

    /**
     * Tables in the Derby database of the database directory {@code directory}: Derby's own files
     * live in its subdirectory {@code derby}, created when absent (the directory itself may exist).
     */
    public static DerbyTableModule inDirectory(Path directory) {
        Objects.requireNonNull(directory, "directory");
        return new DerbyTableModule(() -> EmbeddedDerbyDatabase.open(derbyDirectory(directory)), false, DEFAULT_LOCK_TIMEOUT, true);
    }

    /** Where {@link #inDirectory} keeps Derby's files. */
    public static Path derbyDirectory(Path directory) {
        return directory.resolve("derby");
    }

    /**
     * This module with another bound on how long a reader or writer waits for a row another
     * session has locked before it fails with a lock-timeout error (whole seconds, at least 1).
     */
    public DerbyTableModule withLockTimeout(Duration timeout) {
        return new DerbyTableModule(opener, scratch, timeout, aggregatesInDerby);
    }

    /**
     * This module with Derby computing the aggregates it can compute exactly ({@link DerbyAggregate}),
     * the default, or ({@code false}) the engine reading every row for them: the two give the same
     * answers, so this only compares their costs.
     */
    public DerbyTableModule withAggregatesInDerby(boolean inDerby) {
        return new DerbyTableModule(opener, scratch, lockTimeout, inDerby);
    }

    boolean aggregatesInDerby() {
        return aggregatesInDerby;
    }

    @Override
    public String name() {
        return "derby";
    }

    /** Derby boots at the first table this module stores, not here: a database may never use this host. */
    @Override
    public void start(String databaseName) {
    }

    /** Takes {@code collation = 'BINARY' | 'NOCASE'} (see {@link #keyCollation}) or nothing. */
    @Override
    public HostedTable create(TableShape shape, List<String> args) {
        keyCollation(args);
        return createTable(shape);
    }

    /**
     * {@code using derby(collation = 'NOCASE')} compares the table's text key columns that
     * declare no collation under NOCASE (ASCII case folding, as on the memory host); BINARY, the
     * default, keeps them as declared.
     */
    @Override
    public Optional<Collation> keyCollation(List<String> args) {
        if (args.isEmpty()) {
            return Optional.empty();
        }
        String[] option = args.get(0).split("=", 2);
        if (args.size() > 1 || option.length != 2 || !option[0].equalsIgnoreCase("collation")) {
            throw new DeriveException(DeriveException.SYNTAX, "table module 'derby' takes collation = 'BINARY' | 'NOCASE', got "
                    + args);
        }
        if (option[1].equalsIgnoreCase("binary")) {
            return Optional.empty();
        }
        if (option[1].equalsIgnoreCase("nocase")) {
            return Optional.of(Collation.NOCASE);
        }
        throw new DeriveException(DeriveException.SYNTAX, "table module 'derby': collation must be 'BINARY' or 'NOCASE', not '"
                + option[1] + "'");
    }

    @Override
    public Optional<TableModule> durableAt(Path directory) {
        return Optional.of(inDirectory(directory));
    }

    /** The Derby schema of the host's own tables, beside the user schemas (which are lower case). */
    static final String SYSTEM_SCHEMA = "DERIVE";

    @Override
    public Optional<HostedTable> systemTable(String name, TableShape shape) {
        String derbyName = name.toUpperCase(java.util.Locale.ROOT);
        String schema = store().derbySchema(SYSTEM_SCHEMA);
        Optional<HostedTable> existing = reopenDerby(schema, derbyName, shape, OptionalLong.of(DerbyTable.UNCOUNTED), Map.of());
        if (existing.isPresent()) {
            return existing;
        }
        String created = store().createTable(schema, derbyName, DerbyTable.columnDefinitions(shape));
        return Optional.of(new DerbyTable(this, shape, schema, created, 0, Map.of()));
    }

    /**
     * Takes the row count the engine stored when there is one and counts the rows otherwise; the
     * index tables {@code storageId} names (see {@link DerbyTable#storageId()}) wait for
     * {@link DerbyTable#reopenIndex}.
     */
    @Override
    public Optional<HostedTable> reopen(String storageId, TableShape shape, OptionalLong committedRows) {
        List<String> names = DerbySql.parseIdentifiers(storageId);
        Map<String, String> indexes = new HashMap<>();
        for (int i = 2; i + 1 < names.size(); i += 2) {
            indexes.put(names.get(i), names.get(i + 1));
        }
        return reopenDerby(names.get(0), names.get(1), shape, committedRows, indexes);
    }

    /**
     * A table that in-doubt branches wrote is not counted: Derby holds their row locks, and their
     * rows are of unknown outcome; {@link #completeInDoubt} counts it.
     */
    private Optional<HostedTable> reopenDerby(String schema, String name, TableShape shape, OptionalLong committedRows,
                                              Map<String, String> indexes) {
        if (!store().reopen(schema, name, DerbyTable.columnTypes(shape))) {
            return Optional.empty();
        }
        String qualified = DerbySql.qualified(schema, name);
        List<String> storage = new ArrayList<>(List.of(qualified));
        indexes.values().forEach(index -> storage.add(DerbySql.qualified(schema, index)));
        List<BranchId> writers = inDoubtManifest().writers(storage);
        long rows = committedRows.isPresent() || !writers.isEmpty() ? committedRows.orElse(0) : store().countRows(qualified);
        DerbyTable table = new DerbyTable(this, shape, schema, name, rows, indexes);
        if (!writers.isEmpty()) {
            table.awaitOutcomeOf(writers);
            synchronized (awaitingOutcome) {
                awaitingOutcome.add(table);
            }
        }
        return Optional.of(table);
    }

    /** The branches Derby holds prepared ({@link DerbyTransaction#prepareDurably()}), booting Derby if it is not yet. */
    @Override
    public List<Xid> inDoubt() {
        return store().inDoubt();
    }

    @Override
    public void completeInDoubt(Xid xid, boolean commit) {
        store().completeInDoubt(xid, commit);
        BranchId branch = BranchId.of(xid);
        inDoubtManifest().completed(branch);
        List<DerbyTable> settled = new ArrayList<>();
        synchronized (awaitingOutcome) {
            awaitingOutcome.removeIf(table -> table.outcomeKnown(branch) && settled.add(table));
        }
        settled.forEach(DerbyTable::settle);
    }

    /** Also forgets the detached index tables: the catalog just rewritten names none of them. */
    @Override
    public void sweep() {
        store().sweep(SYSTEM_SCHEMA);
        detachedIndexes().forgetAll();
    }

    DerbyTable createTable(TableShape shape) {
        String schema = store().derbySchema(shape.schema());
        String name = store().createTable(schema, shape.name(), DerbyTable.columnDefinitions(shape));
        return new DerbyTable(this, shape, schema, name, 0, Map.of());
    }

    synchronized DerbyStore store() {
        if (store == null) {
            long seconds = Math.max(1, lockTimeout.toSeconds());
            store = scratch
                    ? new DerbyStore(scratchDatabase(seconds), "derive" + SCRATCH_STORES.incrementAndGet() + "_", (int) seconds)
                    : new DerbyStore(opener.get(), null, (int) seconds);
        }
        return store;
    }

    /**
     * The record of detached index tables; tables in memory do not outlive the module, so theirs
     * is never written.
     */
    synchronized DetachedIndexes detachedIndexes() {
        if (detached == null) {
            detached = scratch ? DetachedIndexes.none(this) : DetachedIndexes.open(this, store(), store().derbySchema(SYSTEM_SCHEMA));
        }
        return detached;
    }

    /**
     * The record of what each XA branch wrote; tables in memory do not outlive the module, nor
     * do their branches, so theirs is never written.
     */
    synchronized InDoubtManifest inDoubtManifest() {
        if (manifest == null) {
            manifest = scratch ? InDoubtManifest.none(this) : InDoubtManifest.open(this, store(), store().derbySchema(SYSTEM_SCHEMA));
        }
        return manifest;
    }

    /** Counts one statement execution (a batch counts once) on a connection of this module. */
    void executed(long count) {
        statements.addAndGet(count);
    }

    /** Counts an aggregate whose answer Derby computed ({@link DerbyAggregate}). */
    void aggregated() {
        aggregates.incrementAndGet();
    }

    /** Commit {@code flush.sequence()} has published, or the flush was abandoned: its before-images wait for {@link #retireOlderThan}. */
    void retireLater(Flush flush) {
        committedFlushes.add(flush);
    }

    /**
     * Forgets the before-images of commits that no snapshot from {@code oldestRead} on needs.
     * Commits of disjoint tables complete side by side, so the queue is ordered by commit number
     * rather than by arrival; called as a commit stages, before it takes its number, so that this
     * work does not hold up the commits after it, and skipped when another commit is at it.
     */
    void retireOlderThan(long oldestRead) {
        if (!retiring.tryLock()) {
            return;
        }
        try {
            Flush oldest;
            while ((oldest = committedFlushes.peek()) != null && oldest.sequence() <= oldestRead) {
                committedFlushes.poll().retire(oldestRead);
            }
        } finally {
            retiring.unlock();
        }
    }

    /**
     * How many statements this module has had Derby execute since it was created, reads included
     * — on session connections and on its own (DDL, catalog, counts, index builds); a batch counts
     * once. For tests and benchmarks that check what an operation costs in Derby round trips.
     */
    public synchronized long statementsExecuted() {
        return statements.get() + (store == null ? 0 : store.statementsExecuted());
    }

    /** How many times the open store has read the tables and columns of Derby's catalog; 0 when none is open. */
    synchronized int catalogReads() {
        return store == null ? 0 : store.catalogReads();
    }

    /**
     * How many aggregates the engine took as Derby computed them instead of reading the rows
     * ({@link io.derive.engine.spi.TableConnection#aggregate}); the rest it declined or was not offered.
     */
    public long aggregatesComputedByDerby() {
        return aggregates.get();
    }

    private static EmbeddedDerbyDatabase scratchDatabase(long lockTimeoutSeconds) {
        synchronized (SCRATCH) {
            return SCRATCH.computeIfAbsent(lockTimeoutSeconds,
                    s -> EmbeddedDerbyDatabase.openInMemory("derive-scratch-" + UUID.randomUUID()));
        }
    }

    DerbySession session(HostSession session) {
        return session.resource(this, DerbySession.class, () -> new DerbySession(this, session));
    }

    void writerStarted(DerbyTransaction transaction) {
        writers.add(transaction);
    }

    void writerEnded(DerbyTransaction transaction) {
        writers.remove(transaction);
    }

    /**
     * The transaction an index build joins, so that it indexes that transaction's own rows and
     * does not wait for its Derby locks: the one live writer, or none. Indexes are built by
     * schema changes, which hold the catalog exclusive, so no other writer is live then.
     *
     * @throws DeriveException {@link DeriveException#INTERNAL} when several writers are live
     */
    DerbyTransaction currentWriter() {
        List<DerbyTransaction> live = writers.stream().filter(t -> !t.ended()).toList();
        if (live.size() > 1) {
            throw new DeriveException(DeriveException.INTERNAL, "an index build found " + live.size()
                    + " transactions writing to the Derby host at once; a schema change runs alone among writers");
        }
        return live.isEmpty() ? null : live.get(0);
    }

    @Override
    public synchronized void close() {
        if (store != null) {
            if (manifest != null) {
                manifest.close();
            }
            store.close();
            statements.addAndGet(store.statementsExecuted());
            store = null;
            detached = null;
            manifest = null;
        }
    }
}
