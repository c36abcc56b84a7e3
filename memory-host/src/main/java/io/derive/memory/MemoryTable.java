package io.derive.memory;

import io.derive.engine.api.DeriveException;
import io.derive.engine.spi.BackingHost;
import io.derive.engine.spi.CacheLinePadding;
import io.derive.engine.spi.HostSession;
import io.derive.engine.spi.HostedTable;
import io.derive.engine.spi.IndexShape;
import io.derive.engine.spi.KeyOrder;
import io.derive.engine.spi.PersistentTree;
import io.derive.engine.spi.TableConnection;
import io.derive.engine.spi.TableShape;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Supplier;

/**
 * One memory table incarnation. Its committed rows and secondary-index entries are one
 * {@link Committed} state; each commit that writes the table publishes a new one under the
 * commit's sequence number ({@link HostSession#commitSequence()}), and a reader takes the newest
 * state at or before its snapshot ({@link HostSession#readSequence()}), so that it sees each
 * commit entirely or not at all, and on every table at the same point. The states form a chain,
 * newest first, from which a commit drops those no statement can read any more.
 */
final class MemoryTable implements HostedTable {
    private final TableShape shape;
    private final KeyOrder keyOrder;
    private final Optional<BackingHost> backingHost;
    /** The empty tree in this table's key order, shared: a tree never changes. */
    private final PersistentTree<Object[], Object[]> noRows;
    /** The newest state and the older ones still readable (see {@link Head}). */
    private final Head head = new Head();
    /** How long the chain was after it was last pruned; guarded by the engine's publish lock of the table ({@link #stage}). */
    private int keptByLastPruning;
    private static final int PRUNE_SLACK = 8;

    /**
     * Committed state: key → row, and for each secondary index (by lower-cased name) its entry
     * tree (entry → physical key).
     */
    record Committed(PersistentTree<Object[], Object[]> rows, Map<String, IndexVersion> indexes) {
        Committed {
            indexes = Map.copyOf(indexes);
        }

        MemoryIndex index(String name) {
            IndexVersion v = indexes.get(name.toLowerCase(Locale.ROOT));
            return v == null ? null : v.index();
        }
    }

    /** The state {@code sequence}'s commit left, and the older states still readable. */
    record Version(long sequence, Committed state, Version older, int length) {
        Version(long sequence, Committed state, Version older) {
            this(sequence, state, older, older == null ? 1 : older.length() + 1);
        }
    }

    private static final VarHandle HEAD;

    static {
        try {
            HEAD = MethodHandles.lookup().findVarHandle(HeadField.class, "version", Version.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** What {@link Head} pads. */
    private abstract static class HeadField extends CacheLinePadding {
        volatile Version version;
    }

    /**
     * The newest state, on cache lines of its own: every commit of the table writes it, and
     * every statement reads it, so beside another table's it would make the commits of disjoint
     * tables miss in each other's caches.
     */
    @SuppressWarnings("unused")
    private static final class Head extends HeadField {
        private long q1, q2, q3, q4, q5, q6, q7, q8;
    }

    /** One secondary index and its committed entries. */
    record IndexVersion(MemoryIndex index, PersistentTree<Object[], Object[]> entries) {
    }

    MemoryTable(TableShape shape) {
        this.shape = shape;
        this.keyOrder = shape.keyOrder();
        this.noRows = PersistentTree.empty(keyOrder);
        this.head.version = new Version(0, new Committed(noRows, Map.of()), null);
        this.backingHost = Optional.of(new MemoryBackingHost(this));
    }

    @Override
    public TableShape shape() {
        return shape;
    }

    KeyOrder keyOrder() {
        return keyOrder;
    }

    /** No rows, in this table's key order. */
    PersistentTree<Object[], Object[]> noRows() {
        return noRows;
    }

    @Override
    public TableConnection connect(HostSession session) {
        return new MemoryConnection(this, session);
    }

    @Override
    public long committedRowCount() {
        return head.version.state().rows().size();
    }

    @Override
    public Optional<BackingHost> backingHost() {
        return backingHost;
    }

    /** Nothing to release: statements still reading an older catalog keep reading the states they hold. */
    @Override
    public void drop() {
    }

    @Override
    public synchronized void createIndex(IndexShape index) {
        String name = index.name().toLowerCase(Locale.ROOT);
        Committed committed = head.version.state();
        if (committed.indexes().containsKey(name)) {
            throw new DeriveException(DeriveException.DUPLICATE_OBJECT, "index " + index.name()
                    + " already exists on table " + shape.qualifiedName());
        }
        MemoryIndex memoryIndex = new MemoryIndex(index, shape);
        Map<String, IndexVersion> indexes = new LinkedHashMap<>(committed.indexes());
        indexes.put(name, new IndexVersion(memoryIndex, memoryIndex.build(committed.rows())));
        replaceHead(new Committed(committed.rows(), indexes));
    }

    @Override
    public synchronized void dropIndex(String name) {
        Committed committed = head.version.state();
        Map<String, IndexVersion> indexes = new LinkedHashMap<>(committed.indexes());
        if (indexes.remove(name.toLowerCase(Locale.ROOT)) != null) {
            replaceHead(new Committed(committed.rows(), indexes));
        }
    }

    /**
     * Replaces the newest state by one with the same rows under the same number: an index
     * change, which only the changing transaction's catalog uses until it commits.
     */
    private void replaceHead(Committed state) {
        head.version = new Version(head.version.sequence(), state, head.version.older());
    }

    /**
     * A new incarnation whose committed rows are the mapped effective rows of {@code connection}.
     * Publishing them as committed at once is safe because only the altering transaction's
     * catalog reaches the new incarnation until it commits (see {@link HostedTable#reshape}).
     */
    @Override
    public HostedTable reshape(TableConnection connection, TableShape newShape,
                               java.util.function.UnaryOperator<Object[]> rowMapping,
                               java.util.function.Supplier<? extends RuntimeException> onDuplicateKey) {
        PersistentTree<Object[], Object[]> rows = PersistentTree.empty(newShape.keyOrder());
        try (io.derive.engine.spi.RowCursor cursor = connection.scan(new Object[0], false)) {
            while (cursor.hasNext()) {
                Object[] row = rowMapping.apply(cursor.next());
                Object[] key = newShape.keyOf(row);
                if (rows.get(key) != null) {
                    throw onDuplicateKey.get();
                }
                rows = rows.put(key, row);
            }
        }
        MemoryTable next = new MemoryTable(newShape);
        next.head.version = new Version(0, new Committed(rows, Map.of()), null);
        return next;
    }

    /** The whole committed state as of snapshot {@code readSequence}: rows and index entries that belong together. */
    Committed committedVersion(long readSequence) {
        Version v = head.version;
        while (v.sequence() > readSequence && v.older() != null) {
            v = v.older();
        }
        return v.state();
    }

    /** A commit's new committed state, built on {@code base}, and the older states it keeps readable. */
    record Staged(Version base, Committed next, Version older) {
    }

    /**
     * Builds the state a connection's pending writes leave, over the current one, dropping the
     * states no snapshot in {@code reads} needs ({@link HostSession#readSequences()}, asked only
     * when the chain is due for pruning). The engine publishes each table's commits in sequence order (its
     * per-table publish lock), so the state built here is still the current one's successor when
     * {@link #publish} installs it; its key locks keep concurrent writers' keys (and so their
     * index entries) disjoint.
     */
    Staged stage(PersistentTree<Object[], Object[]> pending,
                 Map<MemoryIndex, PersistentTree<Object[], Object[]>> pendingIndexes,
                 Supplier<long[]> reads) {
        Version base = head.version;
        Committed committed = base.state();
        Map<String, IndexVersion> indexes = committed.indexes();
        if (!indexes.isEmpty()) {
            Map<String, IndexVersion> next = new LinkedHashMap<>();
            indexes.forEach((name, version) -> {
                PersistentTree<Object[], Object[]> layer = pendingIndexes.get(version.index());
                next.put(name, layer == null ? version : new IndexVersion(version.index(), overlay(version.entries(), layer)));
            });
            indexes = next;
        }
        return new Staged(base, new Committed(overlay(committed.rows(), pending), indexes), prunedIfLong(base, reads));
    }

    /**
     * The chain from {@code v}, pruned of what no snapshot reads only once it has grown to twice
     * what the last pruning kept: pruning walks and copies the chain, so doing it at every commit
     * would cost each commit as many steps as there are versions that snapshots still read.
     */
    private Version prunedIfLong(Version v, Supplier<long[]> reads) {
        if (v.length() < 2 * keptByLastPruning + PRUNE_SLACK) {
            return v;
        }
        Version pruned = readable(v, reads.get());
        keptByLastPruning = pruned.length();
        return pruned;
    }

    /**
     * Makes a staged state that of commit {@code sequence}. Not under this table's monitor: the
     * engine's publish lock orders the table's commits, and index changes and
     * {@link #replaceCommitted} run while no transaction writes the table (the first under the
     * catalog's exclusive lock, the second as {@link io.derive.engine.spi.BackingHost#replaceContents} requires).
     *
     * @throws DeriveException {@link DeriveException#INTERNAL} when the committed state changed
     *         since it was staged (which those rules rule out)
     */
    void publish(Staged staged, long sequence) {
        if (!HEAD.compareAndSet(head, staged.base(), new Version(sequence, staged.next(), staged.older()))) {
            throw new DeriveException(DeriveException.INTERNAL, "table " + shape.qualifiedName()
                    + " changed between staging and publishing a commit");
        }
    }

    /**
     * The chain from {@code v} with only the states a snapshot reads: those newer than the last of
     * {@code reads} (ascending), and for each of {@code reads} the newest state at or before it;
     * {@code v} itself when it holds no other. A state between two snapshots is dropped although
     * it is newer than the oldest: while a descheduled statement holds an old snapshot, writers
     * commit thousands of states that no statement reads, and keeping them would keep their trees.
     */
    static Version readable(Version v, long[] reads) {
        List<Version> kept = new ArrayList<>();
        int next = reads.length - 1;
        long newest = reads[next];
        for (Version x = v; x != null && next >= 0; x = x.older()) {
            if (x.sequence() > newest) {
                kept.add(x);
            } else if (x.sequence() <= reads[next]) {
                // the newest state at or before this read, and before every read down to its own sequence
                kept.add(x);
                while (next >= 0 && reads[next] >= x.sequence()) {
                    next--;
                }
            }
        }
        if (kept.size() == v.length()) {
            return v;
        }
        Version chain = null;
        for (int i = kept.size() - 1; i >= 0; i--) {
            chain = new Version(kept.get(i).sequence(), kept.get(i).state(), chain);
        }
        return chain;
    }

    /** A committed tree with a pending layer applied: a pending value wins, a tombstone removes. */
    private static PersistentTree<Object[], Object[]> overlay(PersistentTree<Object[], Object[]> base,
                                                              PersistentTree<Object[], Object[]> layer) {
        Overlay overlay = new Overlay(base);
        layer.forEach(overlay);
        return overlay.tree;
    }

    /** Applies a pending layer's entries, in key order, to a tree. */
    private static final class Overlay implements BiConsumer<Object[], Object[]> {
        private PersistentTree<Object[], Object[]> tree;

        Overlay(PersistentTree<Object[], Object[]> base) {
            this.tree = base;
        }

        @Override
        public void accept(Object[] key, Object[] value) {
            tree = value == MemoryConnection.TOMBSTONE ? tree.remove(key) : tree.put(key, value);
        }
    }

    /** Replaces the committed rows, rebuilding every index over them. */
    synchronized void replaceCommitted(PersistentTree<Object[], Object[]> contents) {
        Map<String, IndexVersion> indexes = new LinkedHashMap<>();
        head.version.state().indexes().forEach((name, version) ->
                indexes.put(name, new IndexVersion(version.index(), version.index().build(contents))));
        head.version = new Version(head.version.sequence(), new Committed(contents, indexes), null);
    }
}
