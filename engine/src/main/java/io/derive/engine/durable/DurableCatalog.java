package io.derive.engine.durable;

import io.derive.engine.api.DeriveException;
import io.derive.engine.schema.Catalog;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.api.BranchId;
import io.derive.engine.spi.HostedTable;
import io.derive.engine.spi.TableConnection;
import io.derive.engine.spi.TableModule;
import io.derive.engine.spi.TableShape;
import io.derive.engine.txn.CatalogPersistence;
import io.derive.engine.txn.Transaction;
import io.derive.engine.types.Collation;
import io.derive.engine.types.SqlType;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The catalog of a durable database, kept in two tables of its durable host: the entries
 * ({@link CatalogEntry}) and the meta entries (catalog format version, clean-close marker, and
 * the row count of every table as a clean close left it).
 *
 * <p>A transaction that changes the catalog writes the entries of the objects it changed
 * through its own connection to the entry table, in the same host transaction as its data
 * ({@link #stage}); so the durable stale set (the {@code stale} flags) can never disagree with
 * the backings it describes, whatever the moment of a crash.
 */
public final class DurableCatalog implements CatalogPersistence {
    /** The catalog format this engine writes and reads. */
    public static final long FORMAT_VERSION = 1;
    private static final String VERSION = "format_version";
    private static final String CLEAN_CLOSE = "clean_close";
    /** The meta key of a table's row count at the last clean close: this prefix, then its qualified name. */
    private static final String ROWS = "rows:";
    private static final TableShape META = new TableShape("derive", "meta", List.of(
            new TableShape.Column("key", SqlType.TEXT, Collation.BINARY, true),
            new TableShape.Column("value", SqlType.TEXT, Collation.BINARY, false)),
            List.of(new TableShape.KeyPart(0, false)));

    private final TableModule host;
    private final HostedTable entries;
    private final HostedTable meta;
    private final boolean lastCloseClean;
    /**
     * Whether the stored meta says "open" in this format: the marker is written before the
     * first write after the open can become durable ({@link #markOpen}), not at the open itself,
     * so an open that writes nothing (the common restart) writes nothing to the host, and a crash
     * before its first write leaves the last clean close, and its counts, true.
     */
    private volatile boolean markedOpen;
    /** By qualified table name, every count the meta entries hold: the value when trusted, else null. */
    private final Map<String, Long> storedRows;
    private volatile Map<String, CatalogEntry> committed;
    /** The catalog as last written, whose tables' storage a clean close counts. */
    private volatile Catalog current;
    private long nextSeq;

    private DurableCatalog(TableModule host, HostedTable entries, HostedTable meta, Map<String, CatalogEntry> stored,
                           boolean lastCloseClean, boolean markedOpen, Map<String, Long> storedRows) {
        this.host = host;
        this.entries = entries;
        this.meta = meta;
        this.committed = stored;
        this.lastCloseClean = lastCloseClean;
        this.markedOpen = markedOpen;
        this.storedRows = storedRows;
        this.nextSeq = stored.values().stream().mapToLong(CatalogEntry::seq).max().orElse(0) + 1;
    }

    /**
     * The in-doubt branches that wrote the catalog of the durable database in {@code host} (DDL):
     * until they are decided, its entries are of unknown outcome and cannot be read.
     *
     * @throws DeriveException when the host keeps nothing across opens
     */
    public static List<BranchId> inDoubtWriters(TableModule host) {
        return entries(host).inDoubtWriters().stream().map(BranchId::of).toList();
    }

    private static HostedTable entries(TableModule host) {
        return host.systemTable("catalog", CatalogEntry.SHAPE).orElseThrow(() -> new DeriveException(
                DeriveException.FEATURE_NOT_SUPPORTED, "table module '" + host.name() + "' cannot keep the catalog of a durable database"));
    }

    /**
     * Opens (or creates) the catalog in {@code host}, checks its format version and marks the
     * database open (not cleanly closed) until {@link #markClosed()}.
     *
     * @throws DeriveException when the host keeps nothing across opens, or the catalog was
     *         written by a newer format this engine cannot read
     */
    public static DurableCatalog open(TableModule host, String database) {
        HostedTable entries = entries(host);
        HostedTable meta = host.systemTable("meta", META).orElseThrow();
        Map<String, String> values = new HashMap<>();
        Map<String, CatalogEntry> stored = new HashMap<>();
        SystemTableRows.read(meta, row -> values.put((String) row[0], (String) row[1]));
        SystemTableRows.read(entries, row -> {
            CatalogEntry e = CatalogEntry.of(row);
            stored.put(e.key(), e);
        });
        String version = values.get(VERSION);
        if (version != null && Long.parseLong(version) > FORMAT_VERSION) {
            throw new DeriveException(DeriveException.FEATURE_NOT_SUPPORTED, "database '" + database
                    + "' has catalog format version " + version + ", newer than the " + FORMAT_VERSION
                    + " this Derive reads: open it with a newer Derive");
        }
        boolean clean = version == null || "true".equals(values.get(CLEAN_CLOSE));
        // The counts hold only as the clean close left them: once the marker below says "open",
        // any write may change them, until the next clean close writes them again.
        Map<String, Long> rows = new HashMap<>();
        values.forEach((key, value) -> {
            if (key.startsWith(ROWS)) {
                rows.put(key.substring(ROWS.length()), clean ? Long.parseLong(value) : null);
            }
        });
        boolean markedOpen = !clean && Long.toString(FORMAT_VERSION).equals(version);
        return new DurableCatalog(host, entries, meta, stored, clean, markedOpen, rows);
    }

    /**
     * Marks the database open — not cleanly closed, so the next open trusts no stored count —
     * in a host transaction of its own, once per open: before anything written after the open
     * can become durable ({@link CatalogPersistence#writing}, the catalog's own writes, the
     * open's own refills, and an open that finds in-doubt branches, whose outcomes change rows).
     */
    public void markOpen() {
        if (markedOpen) {
            // every writing commit asks: once marked, without taking the catalog's monitor
            return;
        }
        synchronized (this) {
            if (!markedOpen) {
                SystemTableRows.write(meta, c -> {
                    c.put(new Object[]{VERSION, Long.toString(FORMAT_VERSION)});
                    c.put(new Object[]{CLEAN_CLOSE, "false"});
                });
                markedOpen = true;
            }
        }
    }

    @Override
    public void writing() {
        markOpen();
    }

    /**
     * The committed row count of the table {@code qualifiedName} as the last close left it; empty
     * when that close was not clean (or stored no count for it), so the host must count.
     */
    public OptionalLong storedRows(String qualifiedName) {
        Long rows = storedRows.get(qualifiedName);
        return rows == null ? OptionalLong.empty() : OptionalLong.of(rows);
    }

    public TableModule host() {
        return host;
    }

    /** Whether the previous open ended with {@link #markClosed()} (true for a new database). */
    public boolean lastCloseClean() {
        return lastCloseClean;
    }

    /** The stored entries in creation order. */
    public List<CatalogEntry> entries() {
        List<CatalogEntry> sorted = new ArrayList<>(committed.values());
        sorted.sort(Comparator.comparingLong(CatalogEntry::seq));
        return sorted;
    }

    /**
     * Records a clean close with the committed row count of every table that keeps its storage
     * across opens, in one host transaction, so the next open trusts the counts exactly when it
     * sees the marker; the database must not change after this. A table an in-doubt branch wrote
     * has no count to record: its rows are of unknown outcome.
     */
    public void markClosed() {
        if (!markedOpen && lastCloseClean) {
            // nothing was written since a clean close: its marker and counts still hold
            return;
        }
        Catalog catalog = current;
        SystemTableRows.write(meta, c -> {
            for (String table : storedRows.keySet()) {
                c.delete(new Object[]{ROWS + table});
            }
            if (catalog != null) {
                for (TableSchema t : catalog.tables()) {
                    if (!t.schema().equalsIgnoreCase(Catalog.TEMP) && t.storage().storageId().isPresent()
                            && t.storage().inDoubtWriters().isEmpty()) {
                        c.put(new Object[]{ROWS + t.qualifiedName(), Long.toString(t.storage().committedRowCount())});
                    }
                }
            }
            c.put(new Object[]{CLEAN_CLOSE, "true"});
        });
    }

    @Override
    public synchronized void stage(Transaction transaction, Catalog before, Catalog after) {
        markOpen();
        Map<String, CatalogEntry> next = new HashMap<>(committed);
        Set<String> keys = changedKeys(before, after);
        Map<String, CatalogEntry> now = CatalogEntries.of(after);
        TableConnection c = transaction.connection(entries);
        for (String key : keys) {
            CatalogEntry old = committed.get(key);
            CatalogEntry current = now.get(key);
            if (current == null) {
                if (old != null) {
                    c.delete(old.keyValues());
                    next.remove(key);
                }
            } else if (!current.sameContent(old)) {
                CatalogEntry placed = current.at(old != null ? old.seq() : nextSeq++);
                c.put(placed.row());
                next.put(key, placed);
            }
        }
        transaction.onCommit(() -> {
            committed = next;
            current = after;
        });
    }

    @Override
    public void refilled(Transaction transaction, TableSchema view) {
        markOpen();
        CatalogEntry trusted = CatalogEntries.of(transaction.catalog(), view).get(0);
        CatalogEntry old = committed.get(trusted.key());
        CatalogEntry placed = trusted.at(old != null ? old.seq() : nextSeq());
        transaction.connection(entries).put(placed.row());
        transaction.onCommit(() -> placeCommitted(placed));
    }

    private synchronized long nextSeq() {
        return nextSeq++;
    }

    /** Refills of different views commit side by side: each replaces its own entry of the committed map. */
    private synchronized void placeCommitted(CatalogEntry placed) {
        Map<String, CatalogEntry> next = new HashMap<>(committed);
        next.put(placed.key(), placed);
        committed = next;
    }

    /**
     * Puts the stored entry {@code key} in the durable stale set, in a transaction of its own:
     * its backing holds rows nobody may trust until it is refilled.
     */
    void untrusted(String key) {
        CatalogEntry old = committed.get(key);
        if (old != null && !old.stale()) {
            CatalogEntry stale = old.asStale();
            markOpen();
            SystemTableRows.write(entries, c -> c.put(stale.row()));
            placeCommitted(stale);
        }
    }

    /**
     * Writes the entries of {@code catalog} that differ from the stored ones, except those of
     * {@code keep} (objects whose stored definition must survive, like an MV that failed to
     * rehydrate), in a transaction of its own; those of {@code untrusted} (views whose backing
     * holds rows nobody may trust until they are refilled) are written in the durable stale set,
     * so that an open before their refill refills them again.
     */
    void sync(Catalog catalog, Set<String> keep, Set<String> untrusted) {
        Map<String, CatalogEntry> now = new java.util.LinkedHashMap<>(CatalogEntries.of(catalog));
        untrusted.forEach(key -> now.computeIfPresent(key, (k, e) -> e.asStale()));
        Map<String, CatalogEntry> next = new HashMap<>(committed);
        SystemTableRows.write(entries, c -> {
            for (Map.Entry<String, CatalogEntry> e : now.entrySet()) {
                CatalogEntry old = committed.get(e.getKey());
                if (!keep.contains(e.getKey()) && !e.getValue().sameContent(old)) {
                    CatalogEntry placed = e.getValue().at(old != null ? old.seq() : nextSeq++);
                    c.put(placed.row());
                    next.put(e.getKey(), placed);
                }
            }
            for (CatalogEntry old : committed.values()) {
                if (!now.containsKey(old.key()) && !keep.contains(old.key())) {
                    c.delete(old.keyValues());
                    next.remove(old.key());
                }
            }
        });
        committed = next;
        current = catalog;
    }

    /** Keys of the objects whose catalog object is not the same instance before and after. */
    private static Set<String> changedKeys(Catalog before, Catalog after) {
        Map<String, Object> objects = new HashMap<>();
        Set<String> changed = new HashSet<>();
        collect(before, objects::put);
        Map<String, Object> afterObjects = new HashMap<>();
        collect(after, afterObjects::put);
        for (String key : objects.keySet()) {
            if (afterObjects.get(key) != objects.get(key)) {
                changed.add(key);
            }
        }
        for (String key : afterObjects.keySet()) {
            if (objects.get(key) != afterObjects.get(key)) {
                changed.add(key);
            }
        }
        // A changed table object may have gained or lost indexes or a schedule: their entries are the table's too.
        Map<String, CatalogEntry> beforeEntries = CatalogEntries.of(before);
        Map<String, CatalogEntry> afterEntries = CatalogEntries.of(after);
        Set<String> all = new HashSet<>(changed);
        for (Map<String, CatalogEntry> side : List.of(beforeEntries, afterEntries)) {
            for (CatalogEntry e : side.values()) {
                if (e.kind().equals(CatalogEntry.INDEX) || e.kind().equals(CatalogEntry.SCHEDULE)) {
                    all.add(e.key());
                }
            }
        }
        return all;
    }

    private static void collect(Catalog catalog, java.util.function.BiConsumer<String, Object> sink) {
        catalog.tables().forEach(t -> sink.accept(CatalogEntry.TABLE + ":" + t.schema() + "." + t.name(), t));
        catalog.views().forEach(v -> sink.accept(CatalogEntry.VIEW + ":" + v.schema() + "." + v.name(), v));
    }
}
