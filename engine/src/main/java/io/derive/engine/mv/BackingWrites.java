package io.derive.engine.mv;

import io.derive.engine.api.DeriveException;
import io.derive.engine.exec.context.ExecutionContext;
import io.derive.engine.exec.write.RowLocks;
import io.derive.engine.schema.Catalog;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.spi.BackingRowChange;
import io.derive.engine.spi.HostedTable;
import io.derive.engine.spi.MaintenanceOp;
import io.derive.engine.spi.TableShape;
import io.derive.engine.txn.LockMode;
import io.derive.engine.txn.Transaction;

import java.util.List;

/**
 * How backing ops reach a materialized view's backing: under the locks they need, with the view's
 * key rules checked, through the view's backing host.
 */
final class BackingWrites {
    private BackingWrites() {
    }

    /**
     * Applies {@code ops} to the backing of {@code mv} in this transaction. The key columns the
     * body's {@code order by} adds to its logical key, and those of a declared key the body
     * cannot prove, are never NULL (semantics §3): a source change such as {@code drop not null}
     * can let the body produce one, and the writing statement then fails. (A provable key column
     * may be NULL: a NULL group is a group.)
     *
     * @param sourceLocksSuffice whether the writer's locks on the changed source rows already keep
     *                           other transactions off the rows {@code ops} touch
     *                           ({@link #guardedBySourceLocks}): then no lock of the view is taken
     */
    static List<BackingRowChange> apply(ExecutionContext context, TableSchema mv, List<MaintenanceOp> ops,
                                        boolean sourceLocksSuffice) {
        Transaction txn = context.transaction();
        HostedTable storage = mv.storage();
        for (int i = 0; i < ops.size(); i++) {
            MaintenanceOp op = ops.get(i);
            if (op instanceof MaintenanceOp.Upsert upsert) {
                refuseNullOrderKey(context, mv, upsert.row());
                if (!sourceLocksSuffice) {
                    RowLocks.row(txn, storage, storage.shape().keyOf(upsert.row()), LockMode.EXCLUSIVE);
                }
            } else if (op instanceof MaintenanceOp.DeleteKey delete) {
                if (!sourceLocksSuffice) {
                    RowLocks.row(txn, storage, delete.key(), LockMode.EXCLUSIVE);
                }
            } else if (op instanceof MaintenanceOp.Change change) {
                if (change.after() != null) {
                    refuseNullOrderKey(context, mv, change.after());
                }
                if (!sourceLocksSuffice) {
                    RowLocks.row(txn, storage, storage.shape().keyOf(change.keyRow()), LockMode.EXCLUSIVE);
                }
            } else if (op instanceof MaintenanceOp.DeleteByPrefix slice) {
                RowLocks.row(txn, storage, slice.prefix(), LockMode.EXCLUSIVE);
            } else if (op instanceof MaintenanceOp.ReplaceAll all) {
                all.rows().forEach(row -> refuseNullOrderKey(context, mv, row));
                lockWhole(txn, mv);
            }
        }
        return MaterializedViews.backingHost(mv).applyMaintenance(txn.connection(mv), ops);
    }

    /**
     * Whether the writer's locks on the changed source rows are all the locks {@code mv} needs,
     * so that its maintenance takes none of its own: each row carries the key of the one source
     * row it comes from, and nothing but maintenance locks its rows — no view reads it (a keyed
     * join locks its lookup rows shared), no foreign key references it (a child locks its parent
     * row shared), whichever session's pragmas. A write through it writes its source; a refresh
     * and a repair lock its sources ({@link #lockWhole}).
     */
    static boolean guardedBySourceLocks(Catalog catalog, TableSchema mv) {
        return MaintenanceArm.of(mv).rowsCarrySourceKey() && catalog.dependentsOf(mv).isEmpty() && !catalog.isReferenced(mv);
    }

    /**
     * Locks {@code mv} whole, exclusive, for a writer of any of its rows at once (a fill, a
     * repair). When its maintenance locks nothing of it ({@link #guardedBySourceLocks}), its
     * sources are locked shared first: their writers, who maintain it, hold them with intent to
     * write, so this waits for those writers and they for it, as the view's own lock makes the
     * maintainers of other views wait. Sources before the view, in the order writers take them.
     */
    static void lockWhole(Transaction txn, TableSchema mv) {
        Catalog catalog = txn.catalog();
        if (guardedBySourceLocks(catalog, mv)) {
            for (String source : mv.derivation().sources()) {
                catalog.tableByKey(source).ifPresent(t -> txn.lockTable(t.storage(), LockMode.SHARED));
            }
        }
        txn.lockTable(mv.storage(), LockMode.EXCLUSIVE);
    }

    private static void refuseNullOrderKey(ExecutionContext context, TableSchema mv, Object[] row) {
        List<TableShape.KeyPart> key = mv.primaryKey();
        // an indexed loop: this runs for every maintained row, and an iterator costs an allocation
        for (int i = 0; i < key.size(); i++) {
            TableShape.KeyPart part = key.get(i);
            // Which key columns the order by seeded is asked of the body only when one is NULL, which is rare.
            if (row[part.column()] == null && (MaterializedViews.declaredKey(mv) != null
                    || BodyAnalysis.orderKeyColumns(MaterializedViews.bodyPlan(mv, context)).contains(part.column()))) {
                throw new DeriveException(DeriveException.CONSTRAINT, "materialized view '" + mv.qualifiedName()
                        + "' would store NULL in column '" + mv.columns().get(part.column()).name()
                        + "' of its primary key");
            }
        }
    }
}
