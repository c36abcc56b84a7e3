package io.derive.engine.exec.write;

import io.derive.engine.api.DeriveException;
import io.derive.engine.schema.ForeignKey;
import io.derive.engine.schema.IndexSchema;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.spi.RowCursor;
import io.derive.engine.spi.TableConnection;
import io.derive.engine.spi.TableShape;
import io.derive.engine.txn.LockMode;
import io.derive.engine.txn.Transaction;

/**
 * How a foreign key finds its parent rows: the parent table, the referenced columns (in the order
 * of the foreign key's columns) and the unique index serving them (null: the primary key). Both
 * the statement's {@link ForeignKeyEnforcer} and the derived-row validation of maintained tables
 * look parents up through this, so a parent is found the same way for every child.
 */
public final class ForeignKeyParent {
    private final TableSchema parent;
    private final int[] columns;
    private final IndexSchema index;

    private ForeignKeyParent(TableSchema parent, int[] columns, IndexSchema index) {
        this.parent = parent;
        this.columns = columns;
        this.index = index;
    }

    /**
     * The parent key of {@code fk} in {@code parent}: its primary key or a unique index without
     * a {@code where} over exactly the referenced columns.
     *
     * @throws DeriveException {@code foreign key mismatch} when the referenced columns are not
     *         such a key
     */
    public static ForeignKeyParent of(TableSchema child, ForeignKey fk, TableSchema parent) {
        int[] columns = new int[fk.columns().size()];
        if (fk.parentColumns().isEmpty()) {
            if (parent.isBag() || parent.primaryKey().size() != columns.length) {
                throw mismatch(child, parent);
            }
            for (int i = 0; i < columns.length; i++) {
                columns[i] = parent.primaryKey().get(i).column();
            }
        } else {
            if (fk.parentColumns().size() != columns.length) {
                throw mismatch(child, parent);
            }
            for (int i = 0; i < columns.length; i++) {
                columns[i] = parent.columnIndex(fk.parentColumns().get(i)).orElseThrow(() -> mismatch(child, parent));
            }
        }
        if (!parent.isBag() && sameColumns(columns, parent.primaryKey().stream().mapToInt(TableShape.KeyPart::column).toArray())) {
            return new ForeignKeyParent(parent, columns, null);
        }
        for (IndexSchema index : parent.constraints().indexes()) {
            if (index.unique() && index.where() == null
                    && sameColumns(columns, index.columns().stream().mapToInt(IndexSchema.IndexColumn::column).toArray())) {
                return new ForeignKeyParent(parent, columns, index);
            }
        }
        throw mismatch(child, parent);
    }

    public TableSchema parent() {
        return parent;
    }

    /** The referenced parent columns, in the order of the foreign key's columns. */
    int[] columns() {
        return columns;
    }

    /**
     * Whether a parent row holds {@code values} (the child key, in foreign-key column order, no
     * NULLs), read through {@code connection} (the parent's, in the transaction's state). Each
     * value is taken as the parent column's type; one the column cannot hold matches nothing.
     */
    public boolean exists(TableConnection connection, Object[] values) {
        Object[] key = lookupKey(values);
        if (key == null) {
            return false;
        }
        if (index == null) {
            return connection.get(key).isPresent();
        }
        try (RowCursor match = connection.scanIndex(index.name(), key)) {
            return match.hasNext();
        }
    }

    /**
     * Locks, shared, the parent key {@code values} (as {@link #exists} takes them) until the
     * transaction ends, so that the parent row a child relies on is neither deleted nor re-keyed
     * by another transaction meanwhile: the parent's writer locks the same key exclusive.
     */
    public void lockParent(Transaction txn, Object[] values) {
        Object[] key = lookupKey(values);
        if (key == null) {
            return;
        }
        if (index == null) {
            RowLocks.row(txn, parent.storage(), key, LockMode.SHARED);
        } else {
            RowLocks.uniqueValue(txn, parent, index, key, LockMode.SHARED);
        }
    }

    /**
     * The parent's primary key (or the unique index's key) holding {@code values}, each taken as
     * the parent column's type; null when one cannot be, since such a value matches nothing.
     */
    private Object[] lookupKey(Object[] values) {
        Object[] coerced = new Object[values.length];
        for (int i = 0; i < values.length; i++) {
            int column = columns[i];
            try {
                coerced[i] = parent.columns().get(column).type().coerce(values[i], parent.columnLabel(column));
            } catch (DeriveException e) {
                return null;
            }
        }
        int[] order = index == null
                ? parent.storage().shape().key().stream().mapToInt(TableShape.KeyPart::column).toArray()
                : index.columns().stream().mapToInt(IndexSchema.IndexColumn::column).toArray();
        Object[] key = new Object[order.length];
        for (int k = 0; k < key.length; k++) {
            for (int i = 0; i < columns.length; i++) {
                if (columns[i] == order[k]) {
                    key[k] = coerced[i];
                }
            }
        }
        return key;
    }

    private static boolean sameColumns(int[] a, int[] b) {
        if (a.length != b.length) {
            return false;
        }
        for (int x : a) {
            boolean present = false;
            for (int y : b) {
                present |= x == y;
            }
            if (!present) {
                return false;
            }
        }
        return true;
    }

    private static DeriveException mismatch(TableSchema child, TableSchema parent) {
        return new DeriveException(DeriveException.INVALID_DEFINITION, "foreign key mismatch - \"" + child.name()
                + "\" referencing \"" + parent.name() + "\"");
    }
}
