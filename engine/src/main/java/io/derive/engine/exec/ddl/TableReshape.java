package io.derive.engine.exec.ddl;

import io.derive.engine.api.DeriveException;
import io.derive.engine.exec.write.IndexShapes;
import io.derive.engine.schema.IndexSchema;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.spi.HostedTable;
import io.derive.engine.spi.TableShape;
import io.derive.engine.sql.ast.SourceSpan;
import io.derive.engine.txn.Transaction;

import java.util.function.UnaryOperator;

/**
 * Puts an altered table on storage of its new shape ({@link HostedTable#reshape}), inside the
 * altering transaction: the incarnation the transaction's outcome leaves unused is released at
 * its end (the new one on rollback, or on {@code rollback to} a savepoint taken before; the old
 * one on commit), and the table's secondary indexes are re-created on a new incarnation.
 */
public final class TableReshape {
    private TableReshape() {
    }

    /**
     * {@code after} (the altered definition of {@code before}) on storage holding {@code rows}
     * applied to every row the transaction sees of {@code before}.
     *
     * @param at where the altering statement is, for a key collision under the new shape
     */
    public static TableSchema reshaped(Transaction txn, TableSchema before, TableSchema after, UnaryOperator<Object[]> rows,
                                SourceSpan at) {
        TableShape shape = TableSchema.shape(after.schema(), after.name(), after.columns(), after.primaryKey());
        HostedTable old = before.storage();
        HostedTable storage = old.reshape(txn.connection(before), shape, rows,
                () -> new DeriveException(DeriveException.CONSTRAINT, "UNIQUE constraint failed: " + keyLabel(after)
                        + " (existing rows collide under the new definition)", at.line(), at.column()));
        if (storage == old) {
            return after;
        }
        txn.onRollback(storage::drop);
        txn.onCommit(old::drop);
        TableSchema placed = new TableSchema(after.schema(), after.name(), after.columns(), after.primaryKey(),
                after.module(), storage, after.derivation(), after.constraints(), null, after.tags());
        for (IndexSchema index : placed.constraints().indexes()) {
            storage.createIndex(IndexShapes.of(placed, index));
        }
        return placed;
    }

    private static String keyLabel(TableSchema table) {
        StringBuilder columns = new StringBuilder();
        for (TableShape.KeyPart part : table.primaryKey()) {
            columns.append(columns.isEmpty() ? "" : ", ").append(table.columnLabel(part.column()));
        }
        return columns.toString();
    }
}
