package io.derive.engine.spi;

import io.derive.engine.types.Collation;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * What a host needs to know of a secondary index to keep it: its name, the indexed columns (each
 * with the collation and direction of the index, which may differ from the column's), and, for a
 * partial index, which rows it holds.
 *
 * <p>An index entry is the index key of a row ({@link #keyOf}) followed by the row's physical
 * key, so entries are distinct even when index keys repeat. Entries are ordered by
 * {@link #keyOrder()} and then by the table's {@link KeyOrder}. {@code unique} is information
 * for the host (for example to create a unique structure in a database); the engine itself
 * checks uniqueness before it writes, by {@link TableConnection#scanIndex}.
 *
 * @param name    the index name, unique within its table, compared case-insensitively
 * @param columns the indexed columns, in index order; never empty
 * @param unique  whether the engine treats the index key as unique (NULLs are distinct)
 * @param filter  for a partial index, true for the rows the index holds; null for a full index.
 *                It is a pure function of the row and may be called at any time.
 */
public record IndexShape(String name, List<Column> columns, boolean unique, Predicate<Object[]> filter) {

    /** One index column: its position in the row, the collation it is compared under, its direction. */
    public record Column(int column, Collation collation, boolean descending) {
        public Column {
            Objects.requireNonNull(collation, "collation");
        }
    }

    public IndexShape {
        Objects.requireNonNull(name, "name");
        columns = List.copyOf(columns);
        if (columns.isEmpty()) {
            throw new IllegalArgumentException("an index needs at least one column: " + name);
        }
    }

    /** True when the index holds an entry for this row. */
    public boolean covers(Object[] row) {
        return filter == null || filter.test(row);
    }

    /** The index key of a row: the indexed values, in index order. */
    public Object[] keyOf(Object[] row) {
        Object[] key = new Object[columns.size()];
        for (int i = 0; i < key.length; i++) {
            key[i] = row[columns.get(i).column()];
        }
        return key;
    }

    /** The order of index keys under the index's collations and directions. */
    public KeyOrder keyOrder() {
        List<Collation> collations = new ArrayList<>(columns.size());
        List<Boolean> descending = new ArrayList<>(columns.size());
        for (Column c : columns) {
            collations.add(c.collation());
            descending.add(c.descending());
        }
        return new KeyOrder(collations, descending);
    }
}
