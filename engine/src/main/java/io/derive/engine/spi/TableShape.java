package io.derive.engine.spi;

import io.derive.engine.types.Collation;
import io.derive.engine.types.SqlType;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What a host needs to know of a table to store it: qualified name, column types and collations,
 * and the physical key (column positions in key order, each with its direction).
 *
 * <p>Rows handed to a host are {@code Object[]} in column order, values already coerced to the
 * column types (see {@link io.derive.engine.api.Row} for the Java classes). Two rows have the same
 * key when {@link KeyOrder#compare} of their key columns is 0.
 *
 * @param schema  schema name, e.g. {@code main}
 * @param name    table name as declared
 * @param columns the columns, in row order
 * @param key     the physical key columns; never empty
 */
public record TableShape(String schema, String name, List<Column> columns, List<KeyPart> key) {

    /** One stored column. */
    public record Column(String name, SqlType type, Collation collation, boolean notNull) {
        public Column {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(type, "type");
            Objects.requireNonNull(collation, "collation");
        }
    }

    /** One key column: its position in the row and whether it orders descending. */
    public record KeyPart(int column, boolean descending) {
    }

    public TableShape {
        columns = List.copyOf(columns);
        key = List.copyOf(key);
        if (key.isEmpty()) {
            throw new IllegalArgumentException("a table shape needs a physical key: " + name);
        }
        for (KeyPart part : key) {
            if (part.column() < 0 || part.column() >= columns.size()) {
                throw new IllegalArgumentException("key column " + part.column() + " outside " + name);
            }
        }
    }

    public String qualifiedName() {
        return schema + "." + name;
    }

    /** The key values of a row, in key order. */
    public Object[] keyOf(Object[] row) {
        Object[] key = new Object[this.key.size()];
        for (int i = 0; i < key.length; i++) {
            key[i] = row[this.key.get(i).column()];
        }
        return key;
    }

    /** The ordering of this table's keys under their collations and directions. */
    public KeyOrder keyOrder() {
        List<Collation> collations = new ArrayList<>(key.size());
        List<Boolean> descending = new ArrayList<>(key.size());
        for (KeyPart part : key) {
            collations.add(columns.get(part.column()).collation());
            descending.add(part.descending());
        }
        return new KeyOrder(collations, descending);
    }
}
