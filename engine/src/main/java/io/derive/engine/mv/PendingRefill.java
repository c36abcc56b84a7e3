package io.derive.engine.mv;

import io.derive.engine.api.DeriveException;
import io.derive.engine.api.Result;
import io.derive.engine.api.Row;
import io.derive.engine.api.StatementKind;
import io.derive.engine.exec.context.ExecutionContext;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.spi.BackingRowChange;
import io.derive.engine.sql.ast.QualifiedName;
import io.derive.engine.txn.PendingRehydrates;
import io.derive.engine.txn.Transaction;

import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * {@code rehydrate materialized view n}: refills a view a deferred rehydrate left pending from its
 * body, in this transaction, which claims it ({@link Transaction#refilling}) so that no other
 * refill of it runs meanwhile and its commit makes it readable. Its sources must not be pending.
 */
final class PendingRefill {
    private PendingRefill() {
    }

    /**
     * Refills {@code name}; answers {@code rows} (what it holds now) and {@code changed} (backing
     * rows the refill rewrote).
     *
     * @throws DeriveException naming the view when it is not pending, another refill of it runs,
     *         or one of its sources is pending ({@code waits for the rehydrate of its source})
     */
    static Result refill(MaterializedViews views, QualifiedName name, ExecutionContext context) {
        TableSchema mv = MaterializedViews.materializedView(name, context);
        Transaction txn = context.transaction();
        try {
            txn.refilling(mv);
        } catch (DeriveException notPendingOrClaimed) {
            throw notPendingOrClaimed.at(name.span().line(), name.span().column());
        }
        PendingRehydrates pending = context.services().committed().pendingRehydrates();
        for (String source : new TreeSet<>(mv.derivation().sources())) {
            Optional<TableSchema> table = txn.catalog().tableByKey(source);
            if (table.isPresent() && pending.isPending(table.get().storage())) {
                throw name.span().error(DeriveException.OBJECT_NOT_READY, "materialized view '" + mv.qualifiedName()
                        + "' waits for the rehydrate of its source '" + table.get().qualifiedName() + "'");
            }
        }
        txn.beginWrite();
        long started = System.nanoTime();
        long[] rows = new long[1];
        List<BackingRowChange> changes = views.fill(mv, MaterializedViews.bodyPlan(mv, context), context, n -> rows[0] = n);
        // Every MV reading a pending one is pending too (or waits for an in-doubt branch) and is
        // refilled from its body after it: the changes from the untrusted rows stop here.
        MaterializedViews.checkAndActOnReferences(context, mv, changes, true);
        mv.derivation().statistics().refreshed(changes.size(), System.nanoTime() - started);
        return new Result(StatementKind.REFRESH, List.of("rows", "changed"),
                List.of(new Row(List.of("rows", "changed"), new Object[] {rows[0], (long) changes.size()})), 0);
    }
}
