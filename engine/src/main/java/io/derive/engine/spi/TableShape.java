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
 */
public final class TableShape {
    private final String schema;
    private final String name;
    private final List<Column> columns;
    private final List<KeyPart> key;
    /** Of {@link #key}, made once: every write compares keys, and making it allocates. */
    private final KeyOrder keyOrder;

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

    /**
     * @param schema  schema name, e.g. {@code main}
     * @param name    table name as declared
     * @param columns the columns, in row order
     * @param key     the physical key columns; never empty
     * @throws IllegalArgumentException when the key is empty or names a column outside the row
     */
    public TableShape(String schema, String name, List<Column> columns, List<KeyPart> key) {
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
        this.schema = schema;
        this.name = name;
        this.columns = columns;
        this.key = key;
        this.keyOrder = keyOrder(columns, key);
    }

    public String schema() {
        return schema;
    }

    public String name() {
        return name;
    }

    public List<Column> columns() {
        return columns;
    }

    public List<KeyPart> key() {
        return key;
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
        return keyOrder;
    }

    private static KeyOrder keyOrder(List<Column> columns, List<KeyPart> key) {
        List<Collation> collations = new ArrayList<>(key.size());
        List<Boolean> descending = new ArrayList<>(key.size());
        for (KeyPart part : key) {
            collations.add(columns.get(part.column()).collation());
            descending.add(part.descending());
        }
        return new KeyOrder(collations, descending);
    }

    /** Equal when schema, name, columns and key are. */
    @Override
    public boolean equals(Object o) {
        return o instanceof TableShape other && schema.equals(other.schema) && name.equals(other.name)
                && columns.equals(other.columns) && key.equals(other.key);
    }

    @Override
    public int hashCode() {
        return Objects.hash(schema, name, columns, key);
    }

    @Override
    public String toString() {
        return "TableShape[schema=" + schema + ", name=" + name + ", columns=" + columns + ", key=" + key + "]";
    }
}
