package io.derive.memory;

import io.derive.engine.api.DeriveException;
import io.derive.engine.spi.BackingHost;
import io.derive.engine.spi.HostSession;
import io.derive.engine.spi.HostedTable;
import io.derive.engine.spi.IndexShape;
import io.derive.engine.spi.KeyOrder;
import io.derive.engine.spi.TableConnection;
import io.derive.engine.spi.TableShape;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * One memory table incarnation. Its committed rows and secondary-index entries are one
 * {@link Committed} version, replaced as a whole at each commit, so a reader holding a version
 * sees a commit entirely or not at all.
 */
final class MemoryTable implements HostedTable {
    private final TableShape shape;
    private final KeyOrder keyOrder;
    private final MemoryBackingHost backingHost;
    private volatile Committed committed;

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

    /** One secondary index and its committed entries. */
    record IndexVersion(MemoryIndex index, PersistentTree<Object[], Object[]> entries) {
    }

    MemoryTable(TableShape shape) {
        this.shape = shape;
        this.keyOrder = shape.keyOrder();
        this.committed = new Committed(PersistentTree.empty(keyOrder), Map.of());
        this.backingHost = new MemoryBackingHost(this);
    }

    @Override
    public TableShape shape() {
        return shape;
    }

    KeyOrder keyOrder() {
        return keyOrder;
    }

    @Override
    public TableConnection connect(HostSession session) {
        return new MemoryConnection(this);
    }

    @Override
    public long committedRowCount() {
        return committed.rows().size();
    }

    @Override
    public Optional<BackingHost> backingHost() {
        return Optional.of(backingHost);
    }

    @Override
    public void drop() {
        committed = new Committed(PersistentTree.empty(keyOrder), Map.of());
    }

    @Override
    public synchronized void createIndex(IndexShape index) {
        String name = index.name().toLowerCase(Locale.ROOT);
        if (committed.indexes().containsKey(name)) {
            throw new DeriveException(DeriveException.DUPLICATE_OBJECT, "index " + index.name()
                    + " already exists on table " + shape.qualifiedName());
        }
        MemoryIndex memoryIndex = new MemoryIndex(index, shape);
        Map<String, IndexVersion> indexes = new LinkedHashMap<>(committed.indexes());
        indexes.put(name, new IndexVersion(memoryIndex, memoryIndex.build(committed.rows())));
        committed = new Committed(committed.rows(), indexes);
    }

    @Override
    public synchronized void dropIndex(String name) {
        Map<String, IndexVersion> indexes = new LinkedHashMap<>(committed.indexes());
        if (indexes.remove(name.toLowerCase(Locale.ROOT)) != null) {
            committed = new Committed(committed.rows(), indexes);
        }
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
        next.committed = new Committed(rows, Map.of());
        return next;
    }

    /** The committed rows. */
    PersistentTree<Object[], Object[]> committed() {
        return committed.rows();
    }

    /** The whole committed version: rows and index entries that belong together. */
    Committed committedVersion() {
        return committed;
    }

    /**
     * Applies a connection's pending writes. Synchronized because the engine's write lock already
     * serializes writers; this only keeps {@link #replaceContents} from interleaving.
     */
    synchronized void publish(PersistentTree<Object[], Object[]> pending,
                              Map<MemoryIndex, PersistentTree<Object[], Object[]>> pendingIndexes) {
        Map<String, IndexVersion> indexes = new LinkedHashMap<>();
        committed.indexes().forEach((name, version) -> {
            PersistentTree<Object[], Object[]> layer = pendingIndexes.get(version.index());
            indexes.put(name, layer == null ? version : new IndexVersion(version.index(), overlay(version.entries(), layer)));
        });
        committed = new Committed(overlay(committed.rows(), pending), indexes);
    }

    /** A committed tree with a pending layer applied: a pending value wins, a tombstone removes. */
    private static PersistentTree<Object[], Object[]> overlay(PersistentTree<Object[], Object[]> base,
                                                              PersistentTree<Object[], Object[]> layer) {
        PersistentTree<Object[], Object[]> next = base;
        var entries = layer.range(k -> 0, false);
        while (entries.hasNext()) {
            var e = entries.next();
            next = e.value() == MemoryConnection.TOMBSTONE ? next.remove(e.key()) : next.put(e.key(), e.value());
        }
        return next;
    }

    /** Replaces the committed rows, rebuilding every index over them. */
    synchronized void replaceCommitted(PersistentTree<Object[], Object[]> contents) {
        Map<String, IndexVersion> indexes = new LinkedHashMap<>();
        committed.indexes().forEach((name, version) ->
                indexes.put(name, new IndexVersion(version.index(), version.index().build(contents))));
        committed = new Committed(contents, indexes);
    }
}
