package io.derive.engine.exec.context;

import io.derive.engine.schema.Catalog;
import io.derive.engine.schema.SchemaChangeListener;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.spi.HostedTable;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Derives the table events of one statement from the catalogs before and after it and hands
 * them to the {@link SchemaChangeListener}s. Comparing snapshots, rather than having each DDL
 * statement report, covers every DDL path (the MV statements included) the same way.
 */
public final class SchemaChangeEvents {
    private final List<SchemaChangeListener> listeners = new CopyOnWriteArrayList<>();

    public void subscribe(SchemaChangeListener listener) {
        listeners.add(listener);
    }

    /** Fires the events that turn {@code before} into {@code after}; nothing when they are the same snapshot. */
    public void fire(Catalog before, Catalog after) {
        if (before == after || listeners.isEmpty()) {
            return;
        }
        Map<String, TableSchema> removed = new LinkedHashMap<>();
        for (TableSchema t : before.tables()) {
            removed.put(t.key(), t);
        }
        List<TableSchema> added = new ArrayList<>();
        List<TableSchema[]> modified = new ArrayList<>();
        for (TableSchema t : after.tables()) {
            TableSchema old = removed.remove(t.key());
            if (old == null) {
                added.add(t);
            } else if (old != t) {
                modified.add(new TableSchema[] {old, t});
            }
        }
        // a rename keeps the storage: pair it up instead of reporting a drop and a create
        Map<HostedTable, TableSchema> removedByStorage = new IdentityHashMap<>();
        removed.values().forEach(t -> removedByStorage.put(t.storage(), t));
        for (TableSchema t : List.copyOf(added)) {
            TableSchema old = removedByStorage.remove(t.storage());
            if (old != null) {
                added.remove(t);
                removed.remove(old.key());
                modified.add(new TableSchema[] {old, t});
            }
        }
        for (SchemaChangeListener listener : listeners) {
            removed.values().forEach(listener::tableRemoved);
            modified.forEach(pair -> listener.tableModified(pair[0], pair[1]));
            added.forEach(listener::tableAdded);
        }
    }
}
