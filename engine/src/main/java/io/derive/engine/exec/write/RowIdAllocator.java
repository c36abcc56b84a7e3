package io.derive.engine.exec.write;

import io.derive.engine.api.DeriveException;
import io.derive.engine.schema.ColumnSchema;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.spi.RowCursor;
import io.derive.engine.spi.TableConnection;
import io.derive.engine.txn.Transaction;
import io.derive.engine.types.Collation;
import io.derive.engine.types.SqlType;

import java.util.Locale;
import java.util.Set;

/**
 * Row identities as SQLite assigns them: a row inserted without one gets one more than the
 * largest in the table (1 in an empty table). Applies to the hidden {@code rowid} of a bag and to
 * an {@code integer primary key}, which is the row id's alias. Ids other live transactions
 * have given count as taken ({@link Transaction#nextRowId}).
 */
public final class RowIdAllocator {
    private static final Object[] WHOLE_TABLE = new Object[0];

    private RowIdAllocator() {
    }

    /**
     * The hidden row-identity column of a new bag: named {@code rowid}, or one of its aliases
     * when declared columns already take that name (a declared column shadows it, as in SQLite).
     */
    public static ColumnSchema hiddenColumn(Set<String> declaredLowerCaseNames) {
        for (String name : new String[] {TableSchema.ROWID, "_rowid_", "oid"}) {
            if (!declaredLowerCaseNames.contains(name.toLowerCase(Locale.ROOT))) {
                return new ColumnSchema(name, SqlType.INTEGER, Collation.BINARY, true, null, true);
            }
        }
        throw new DeriveException(DeriveException.INVALID_DEFINITION,
                "a table without a primary key cannot declare columns rowid, _rowid_ and oid all at once");
    }

    /**
     * Gives {@code row} the next row id when the table has a row-id column and the row leaves it
     * NULL; called by the DML executor for each inserted row before coercion and constraint checks.
     */
    public static void assign(TableSchema table, Transaction txn, TableConnection connection, Object[] row) {
        Integer column = table.rowIdColumn().orElse(null);
        if (column == null || row[column] != null) {
            return;
        }
        long largest = 0;
        // the row id is the whole physical key, ascending: the last row in key order holds the largest
        try (RowCursor last = connection.scan(WHOLE_TABLE, true)) {
            if (last.hasNext() && last.next()[column] instanceof Long id) {
                largest = id;
            }
        }
        long next = txn.nextRowId(table.storage(), largest);
        if (next == Long.MIN_VALUE) {
            throw new DeriveException(DeriveException.CONSTRAINT, "table " + table.name()
                    + " has used the largest row id; give the row an explicit " + table.columns().get(column).name());
        }
        row[column] = next;
    }
}
