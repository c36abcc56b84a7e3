package io.derive.engine.exec.write;

import io.derive.engine.exec.query.EqualityKey;
import io.derive.engine.schema.IndexSchema;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.spi.HostedTable;
import io.derive.engine.spi.TableShape;
import io.derive.engine.txn.LockMode;
import io.derive.engine.txn.Transaction;
import io.derive.engine.types.Collation;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The names under which a table's rows and unique values are locked, so that every writer and
 * every check names one thing alike: a row by its physical key, a unique index's value by the
 * index and the value, each folded as its collations compare ({@link EqualityKey}), so keys
 * that are equal to the table are one lock.
 */
public final class RowLocks {
    private RowLocks() {
    }

    /**
     * Locks the row at physical key {@code key} of {@code storage}, or, given a leading part of a
     * key, the slice of rows it begins (a slice is rewritten by one writer at a time, the one
     * holding this lock).
     */
    public static void row(Transaction txn, HostedTable storage, Object[] key, LockMode mode) {
        txn.lockRow(storage, rowName(storage.shape(), key), mode);
    }

    /** Locks the value {@code indexKey} of the unique index {@code index} of {@code table}. */
    public static void uniqueValue(Transaction txn, TableSchema table, IndexSchema index, Object[] indexKey, LockMode mode) {
        List<Collation> collations = new ArrayList<>(index.columns().size());
        for (IndexSchema.IndexColumn c : index.columns()) {
            collations.add(c.collation());
        }
        txn.lockRow(table.storage(), List.of(index.name().toLowerCase(Locale.ROOT), EqualityKey.of(indexKey, collations)), mode);
    }

    private static List<Object> rowName(TableShape shape, Object[] key) {
        Object[] folded = new Object[key.length];
        for (int i = 0; i < key.length; i++) {
            folded[i] = EqualityKey.of(key[i], shape.columns().get(shape.key().get(i).column()).collation());
        }
        return Arrays.asList(folded);
    }
}
