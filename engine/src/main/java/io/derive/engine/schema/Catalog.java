package io.derive.engine.schema;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * An immutable snapshot of the schema objects of a database. DDL produces a new snapshot inside
 * its transaction; commit publishes it, rollback drops it, which is what makes DDL transactional.
 * Names are compared case-insensitively.
 */
public final class Catalog {
    public static final String MAIN = "main";
    public static final String TEMP = "temp";

    private static final Catalog EMPTY = new Catalog(Map.of(), Map.of());

    private final Map<String, TableSchema> tables;
    /** Views by key; a key is never in both maps (one namespace). */
    private final Map<String, ViewSchema> views;
    /**
     * Whether some table is in {@code temp}: an unqualified name is looked up there first only
     * then, since a key is built by concatenating and every statement resolves its tables.
     */
    private final boolean anyTempTable;
    /** Computed on first use: every row write asks it, and a snapshot never changes. */
    private volatile TableIndex<List<TableSchema>> dependents;
    /** Computed on first use, like {@link #dependents}: the foreign keys that reference a table. */
    private volatile TableIndex<List<ChildKey>> referencing;

    /**
     * A value per table, by catalog key, and by this catalog's own table instances, which a row
     * write passes: it then neither builds nor hashes a key. Another instance is found by its key.
     */
    private record TableIndex<V>(Map<String, V> byKey, Map<TableSchema, V> byTable, V absent) {
        static <V> TableIndex<V> of(Map<String, V> byKey, Collection<TableSchema> tables, V absent) {
            Map<TableSchema, V> byTable = new IdentityHashMap<>();
            for (TableSchema t : tables) {
                byTable.put(t, byKey.getOrDefault(t.key(), absent));
            }
            return new TableIndex<>(byKey, byTable, absent);
        }

        V get(TableSchema table) {
            V mine = byTable.get(table);
            return mine != null ? mine : byKey.getOrDefault(table.key(), absent);
        }
    }

    private Catalog(Map<String, TableSchema> tables, Map<String, ViewSchema> views) {
        this.tables = tables;
        this.views = views;
        this.anyTempTable = tables.values().stream().anyMatch(t -> t.schema().equalsIgnoreCase(TEMP));
    }

    public static Catalog empty() {
        return EMPTY;
    }

    public static String key(String schema, String name) {
        return (schema + "." + name).toLowerCase(Locale.ROOT);
    }

    /** The table of that name; {@code schema} null searches {@code temp} then {@code main}, as SQLite does. */
    public Optional<TableSchema> table(String schema, String name) {
        if (schema != null) {
            return Optional.ofNullable(tables.get(key(schema, name)));
        }
        TableSchema temp = anyTempTable ? tables.get(key(TEMP, name)) : null;
        return temp != null ? Optional.of(temp) : Optional.ofNullable(tables.get(key(MAIN, name)));
    }

    public Collection<TableSchema> tables() {
        return Collections.unmodifiableCollection(tables.values());
    }

    /** Maintained tables whose body reads the given table, in creation order. */
    public List<TableSchema> dependentsOf(TableSchema source) {
        TableIndex<List<TableSchema>> index = dependents;
        if (index == null) {
            Map<String, List<TableSchema>> byKey = new LinkedHashMap<>();
            for (TableSchema t : tables.values()) {
                if (t.isMaintained()) {
                    for (String s : t.derivation().sources()) {
                        byKey.computeIfAbsent(s, k -> new ArrayList<>()).add(t);
                    }
                }
            }
            index = TableIndex.of(byKey, tables.values(), List.of());
            dependents = index;
        }
        return index.get(source);
    }

    /** The table with this catalog key ({@link TableSchema#key()}), if there is one. */
    public Optional<TableSchema> tableByKey(String key) {
        return Optional.ofNullable(tables.get(key));
    }

    /** A foreign key of table {@code child}, as {@link #foreignKeysReferencing} lists it. */
    public record ChildKey(TableSchema child, ForeignKey key) {
    }

    /** Whether a foreign key of some table references {@code parent}. */
    public boolean isReferenced(TableSchema parent) {
        return !foreignKeysReferencing(parent).isEmpty();
    }

    /**
     * The foreign keys, of any table, whose parent is {@code parent}, in table creation order: a
     * statement that writes a parent asks, and scanning every table's keys each time would cost
     * it as much as the schema is large.
     */
    public List<ChildKey> foreignKeysReferencing(TableSchema parent) {
        TableIndex<List<ChildKey>> index = referencing;
        if (index == null) {
            Map<String, List<ChildKey>> byKey = new java.util.HashMap<>();
            for (TableSchema t : tables.values()) {
                for (ForeignKey fk : t.constraints().foreignKeys()) {
                    table(fk.parentSchema(), fk.parentTable()).ifPresent(p ->
                            byKey.computeIfAbsent(p.key(), k -> new ArrayList<>()).add(new ChildKey(t, fk)));
                }
            }
            byKey.replaceAll((k, children) -> List.copyOf(children));
            index = TableIndex.of(byKey, tables.values(), List.of());
            referencing = index;
        }
        return index.get(parent);
    }

    public Catalog with(TableSchema table) {
        Map<String, TableSchema> copy = new LinkedHashMap<>(tables);
        copy.put(table.key(), table);
        return new Catalog(copy, views);
    }

    public Catalog without(TableSchema table) {
        Map<String, TableSchema> copy = new LinkedHashMap<>(tables);
        copy.remove(table.key());
        return new Catalog(copy, views);
    }

    /**
     * The view of that name; {@code schema} null searches {@code temp} then {@code main}. The
     * query binder expands a view named in {@code from} through this.
     */
    public Optional<ViewSchema> view(String schema, String name) {
        if (schema != null) {
            return Optional.ofNullable(views.get(key(schema, name)));
        }
        ViewSchema temp = views.get(key(TEMP, name));
        return temp != null ? Optional.of(temp) : Optional.ofNullable(views.get(key(MAIN, name)));
    }

    /** Views in creation order. */
    public Collection<ViewSchema> views() {
        return Collections.unmodifiableCollection(views.values());
    }

    public Catalog with(ViewSchema view) {
        Map<String, ViewSchema> copy = new LinkedHashMap<>(views);
        copy.put(view.key(), view);
        return new Catalog(tables, copy);
    }

    public Catalog without(ViewSchema view) {
        Map<String, ViewSchema> copy = new LinkedHashMap<>(views);
        copy.remove(view.key());
        return new Catalog(tables, copy);
    }

    /**
     * Replaces a table by its altered form, also under a new name: {@code before}'s entry goes
     * and {@code after} takes its place in creation order, so introspection keeps the order.
     */
    public Catalog replacing(TableSchema before, TableSchema after) {
        Map<String, TableSchema> copy = new LinkedHashMap<>();
        for (Map.Entry<String, TableSchema> e : tables.entrySet()) {
            if (e.getKey().equals(before.key())) {
                copy.put(after.key(), after);
            } else {
                copy.put(e.getKey(), e.getValue());
            }
        }
        return new Catalog(copy, views);
    }
}
