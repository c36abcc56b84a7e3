package io.derive.memory;

import io.derive.engine.api.DeriveException;
import io.derive.engine.spi.HostSession;
import io.derive.engine.spi.HostedTable;
import io.derive.engine.spi.KeyRange;
import io.derive.engine.spi.LookaheadCursor;
import io.derive.engine.spi.PersistentTree;
import io.derive.engine.spi.RowCursor;
import io.derive.engine.spi.TableConnection;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToIntFunction;

/**
 * A transaction's connection to a {@link MemoryTable}: pending writes are a private
 * {@link PersistentTree} of key → row (or {@link #TOMBSTONE}) layered over committed state.
 * Each secondary index has a pending layer too (entry → physical key, or {@link #TOMBSTONE} for a
 * committed entry removed), kept in step with the pending rows; a layer missing for an index
 * (created after this connection wrote, or lost by rolling back to an older savepoint) is
 * rebuilt from the pending rows when first needed. A savepoint is just the pending versions at
 * that moment.
 *
 * <p>Committed state is read as of the session's current snapshot
 * ({@link HostSession#readSequence()}). The engine locks every key before a connection writes
 * it and restarts a statement whose snapshot is older than that key's latest commit, so the
 * committed row a pending write replaces is the latest one, and a commit's layer lies over the
 * state it replaces whatever other keys committed meanwhile.
 */
final class MemoryConnection implements TableConnection {
    /** Marks a key deleted in pending state. */
    static final Object[] TOMBSTONE = new Object[0];

    private final MemoryTable table;
    private final HostSession session;
    /**
     * The savepoints taken while nothing was pending, depths 1 to this: most connections are made
     * inside a statement, so every savepoint open then is taken before they write, and keeping
     * them as a count spares a list per connection.
     */
    private int emptySavepoints;
    /**
     * The pending state at each later savepoint, depth {@code emptySavepoints + 1} first; null
     * until one is taken with something pending, which most connections never see.
     */
    private List<Mark> savepoints;
    private PersistentTree<Object[], Object[]> pending;
    /** Immutable and empty until an index layer is written: most tables written have no index. */
    private Map<MemoryIndex, PersistentTree<Object[], Object[]>> pendingIndexes = Map.of();
    private boolean live = true;
    /** What {@link #stage()} built for the commit, published by {@link #commit()}. */
    private MemoryTable.Staged staged;

    MemoryConnection(MemoryTable table, HostSession session) {
        this.table = table;
        this.session = session;
        this.pending = table.noRows();
    }

    @Override
    public HostedTable table() {
        return table;
    }

    MemoryTable memoryTable() {
        return table;
    }

    boolean isLive() {
        return live;
    }

    /** The committed state the current statement reads. */
    private MemoryTable.Committed committed() {
        return table.committedVersion(session.readSequence());
    }

    @Override
    public Optional<Object[]> get(Object[] key) {
        requireLive();
        Object[] row = pending.get(key);
        if (row == null) {
            row = committed().rows().get(key);
        } else if (row == TOMBSTONE) {
            row = null;
        }
        return Optional.ofNullable(row);
    }

    @Override
    public RowCursor scan(Object[] prefix, boolean descending) {
        requireLive();
        ToIntFunction<Object[]> probe = key -> table.keyOrder().compareToPrefix(key, prefix);
        return new MergingCursor(committed().rows().range(probe, descending), pending.range(probe, descending),
                table.keyOrder(), descending);
    }

    @Override
    public RowCursor scan(KeyRange range, boolean descending) {
        requireLive();
        ToIntFunction<Object[]> probe = key -> range.position(key, table.keyOrder());
        return new MergingCursor(committed().rows().range(probe, descending), pending.range(probe, descending),
                table.keyOrder(), descending);
    }

    @Override
    public RowCursor scanIndex(String name, Object[] prefix) {
        return scanIndex(name, prefix, false);
    }

    /** Walks the entry trees backwards when descending: a seek, not a read of the whole prefix. */
    @Override
    public RowCursor scanIndex(String name, Object[] prefix, boolean descending) {
        return indexCursor(name, prefix.length, index -> entry -> index.compareToPrefix(entry, prefix), descending);
    }

    @Override
    public RowCursor scanIndex(String name, KeyRange range) {
        return indexCursor(name, range.prefix().length + 1, index -> entry -> range.position(entry, index.keyOrder()),
                false);
    }

    /** Effective rows of the index entries {@code probeOf} places in range, in index order or its reverse. */
    private RowCursor indexCursor(String name, int columnsUsed,
                                  java.util.function.Function<MemoryIndex, ToIntFunction<Object[]>> probeOf,
                                  boolean descending) {
        requireLive();
        MemoryTable.Committed version = committed();
        MemoryIndex index = version.index(name);
        if (index == null) {
            throw new DeriveException(DeriveException.UNDEFINED_OBJECT, "no such index: " + name
                    + " on table " + table.shape().qualifiedName());
        }
        if (columnsUsed > index.shape().columns().size()) {
            throw new IllegalArgumentException("prefix longer than index " + name);
        }
        ToIntFunction<Object[]> probe = probeOf.apply(index);
        PersistentTree<Object[], Object[]> committedEntries = version.indexes().get(name.toLowerCase(Locale.ROOT)).entries();
        MergingCursor keys = new MergingCursor(committedEntries.range(probe, descending),
                layer(index).range(probe, descending), index.entryOrder(), descending);
        return new LookaheadCursor() {
            @Override
            protected Object[] advance() {
                while (keys.hasNext()) {
                    Object[] key = keys.next();
                    Object[] row = pending.get(key);
                    if (row == null) {
                        row = version.rows().get(key);
                    }
                    if (row != null && row != TOMBSTONE) {
                        return row;
                    }
                }
                return null;
            }

            @Override
            public void close() {
                keys.close();
            }
        };
    }

    @Override
    public void put(Object[] row) {
        requireLive();
        Object[] key = table.shape().keyOf(row);
        if (!committed().indexes().isEmpty()) {
            reindex(get(key).orElse(null), row);
        }
        pending = pending.put(key, row);
    }

    /** Moves the index entries of a row from its old image to its new one (either may be null). */
    private void reindex(Object[] before, Object[] after) {
        MemoryTable.Committed version = committed();
        if (version.indexes().isEmpty()) {
            return;
        }
        for (MemoryTable.IndexVersion v : version.indexes().values()) {
            MemoryIndex index = v.index();
            PersistentTree<Object[], Object[]> layer = layer(index);
            Object[] old = index.entryOf(before);
            if (old != null) {
                layer = v.entries().get(old) != null ? layer.put(old, TOMBSTONE) : layer.remove(old);
            }
            Object[] entry = index.entryOf(after);
            if (entry != null) {
                layer = layer.put(entry, table.shape().keyOf(after));
            }
            withIndexLayer(index, layer);
        }
    }

    private void withIndexLayer(MemoryIndex index, PersistentTree<Object[], Object[]> layer) {
        if (pendingIndexes.isEmpty()) {
            pendingIndexes = new HashMap<>();
        }
        pendingIndexes.put(index, layer);
    }

    /** The pending layer of an index, built from the pending rows when this connection has none yet. */
    private PersistentTree<Object[], Object[]> layer(MemoryIndex index) {
        PersistentTree<Object[], Object[]> layer = pendingIndexes.get(index);
        if (layer != null) {
            return layer;
        }
        MemoryTable.Committed version = committed();
        PersistentTree<Object[], Object[]> committedEntries = version.indexes().get(index.name().toLowerCase(Locale.ROOT)).entries();
        layer = PersistentTree.empty(index.entryOrder());
        var entries = pending.range(k -> 0, false);
        while (entries.hasNext()) {
            var e = entries.next();
            Object[] old = index.entryOf(version.rows().get(e.key()));
            if (old != null && committedEntries.get(old) != null) {
                layer = layer.put(old, TOMBSTONE);
            }
            Object[] entry = e.value() == TOMBSTONE ? null : index.entryOf(e.value());
            if (entry != null) {
                layer = layer.put(entry, e.key());
            }
        }
        withIndexLayer(index, layer);
        return layer;
    }

    @Override
    public void delete(Object[] key) {
        requireLive();
        Object[] staged = pending.get(key);
        if (staged == TOMBSTONE) {
            return;
        }
        Object[] existing = staged != null ? staged : committed().rows().get(key);
        if (existing != null) {
            erase(key, existing, staged);
        }
    }

    /**
     * Takes {@code current} as the effective row and looks up no committed one when nothing is
     * staged at its key; with indexes, whose entries must leave with the stored row, it reads
     * that row as {@link #delete} does (as {@link #put} reads it only then).
     */
    @Override
    public void remove(Object[] current) {
        requireLive();
        Object[] key = table.shape().keyOf(current);
        if (!committed().indexes().isEmpty()) {
            delete(key);
            return;
        }
        erase(key, current, pending.get(key));
    }

    /**
     * Deletes the effective row {@code existing} at {@code key}, of which {@code staged} is what this
     * transaction wrote there (null: nothing, so {@code existing} is committed).
     */
    private void erase(Object[] key, Object[] existing, Object[] staged) {
        reindex(existing, null);
        // A committed row needs a tombstone over it; a row only this transaction wrote just goes.
        if (staged == null || committed().rows().get(key) != null) {
            pending = pending.put(key, TOMBSTONE);
        } else {
            pending = pending.remove(key);
        }
    }

    @Override
    public boolean hasPendingWrites() {
        return !pending.isEmpty();
    }

    @Override
    public void savepoint(int depth) {
        requireLive();
        dropSavepointsFrom(depth);
        while (savepointDepth() < depth) {
            if (marked() == 0 && pending.isEmpty() && pendingIndexes.isEmpty()) {
                emptySavepoints++;
            } else {
                if (savepoints == null) {
                    savepoints = new ArrayList<>();
                }
                savepoints.add(new Mark(pending, pendingIndexes.isEmpty() ? Map.of() : new HashMap<>(pendingIndexes)));
            }
        }
    }

    @Override
    public void releaseSavepoint(int depth) {
        dropSavepointsFrom(depth);
    }

    @Override
    public void rollbackToSavepoint(int depth) {
        requireLive();
        if (depth < 1 || depth > savepointDepth()) {
            throw new DeriveException(DeriveException.TRANSACTION_STATE, "no savepoint at depth " + depth
                    + " on table " + table.shape().qualifiedName());
        }
        if (depth <= emptySavepoints) {
            pending = table.noRows();
            pendingIndexes = Map.of();
            emptySavepoints = depth;
            savepoints = null;
            return;
        }
        int at = depth - emptySavepoints - 1;
        Mark mark = savepoints.get(at);
        pending = mark.rows();
        pendingIndexes = mark.indexes().isEmpty() ? Map.of() : new HashMap<>(mark.indexes());
        while (savepoints.size() > at + 1) {
            savepoints.remove(savepoints.size() - 1);
        }
    }

    private int savepointDepth() {
        return emptySavepoints + marked();
    }

    private int marked() {
        return savepoints == null ? 0 : savepoints.size();
    }

    /** Forgets the savepoints at {@code depth} and deeper. */
    private void dropSavepointsFrom(int depth) {
        if (depth - 1 < emptySavepoints) {
            emptySavepoints = Math.max(0, depth - 1);
            savepoints = null;
            return;
        }
        while (savepointDepth() >= depth) {
            savepoints.remove(savepoints.size() - 1);
        }
    }

    @Override
    public void stage() {
        requireLive();
        if (!pending.isEmpty()) {
            Map<String, MemoryTable.IndexVersion> indexes = committed().indexes();
            if (!indexes.isEmpty()) {
                indexes.values().forEach(v -> layer(v.index()));
            }
            staged = table.stage(pending, pendingIndexes, session::readSequences);
        }
    }

    @Override
    public void commit() {
        requireLive();
        if (!pending.isEmpty()) {
            if (staged == null) {
                stage();
            }
            table.publish(staged, session.commitSequence());
        }
        end();
    }

    @Override
    public void rollback() {
        if (live) {
            end();
        }
    }

    private void end() {
        live = false;
        staged = null;
        pending = table.noRows();
        pendingIndexes = Map.of();
        emptySavepoints = 0;
        savepoints = null;
    }

    private void requireLive() {
        if (!live) {
            throw new DeriveException(DeriveException.TRANSACTION_STATE, "the connection to table "
                    + table.shape().qualifiedName() + " has ended");
        }
    }

    /** Committed and pending entries merged in key order; a pending entry wins, a tombstone hides. */
    private static final class MergingCursor extends LookaheadCursor {
        private final Iterator<PersistentTree.Entry<Object[], Object[]>> committed;
        private final Iterator<PersistentTree.Entry<Object[], Object[]>> pendingEntries;
        private final Comparator<Object[]> order;
        private final boolean descending;
        private PersistentTree.Entry<Object[], Object[]> c;
        private PersistentTree.Entry<Object[], Object[]> p;

        MergingCursor(Iterator<PersistentTree.Entry<Object[], Object[]>> committed,
                      Iterator<PersistentTree.Entry<Object[], Object[]>> pendingEntries, Comparator<Object[]> order,
                      boolean descending) {
            this.committed = committed;
            this.order = order;
            this.pendingEntries = pendingEntries;
            this.descending = descending;
            c = committed.hasNext() ? committed.next() : null;
            p = pendingEntries.hasNext() ? pendingEntries.next() : null;
        }

        @Override
        protected Object[] advance() {
            while (c != null || p != null) {
                int order = c == null ? 1 : p == null ? -1 : this.order.compare(c.key(), p.key());
                if (descending && c != null && p != null) {
                    order = -order;
                }
                if (order < 0) {
                    Object[] row = c.value();
                    c = committed.hasNext() ? committed.next() : null;
                    return row;
                }
                if (order == 0) {
                    c = committed.hasNext() ? committed.next() : null;
                }
                Object[] row = p.value();
                p = pendingEntries.hasNext() ? pendingEntries.next() : null;
                if (row != TOMBSTONE) {
                    return row;
                }
            }
            return null;
        }

        @Override
        public void close() {
            // nothing to release: versions are garbage-collected
        }
    }

    /** The pending rows and index layers at a savepoint. */
    private record Mark(PersistentTree<Object[], Object[]> rows, Map<MemoryIndex, PersistentTree<Object[], Object[]>> indexes) {
    }
}
