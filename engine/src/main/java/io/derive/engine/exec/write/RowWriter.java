package io.derive.engine.exec.write;

import io.derive.engine.exec.context.ExecutionContext;
import io.derive.engine.exec.expr.Parameters;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.spi.HostedTable;
import io.derive.engine.spi.KeyOrder;
import io.derive.engine.spi.TableConnection;
import io.derive.engine.spi.TableShape;
import io.derive.engine.sql.ast.Statement.ConflictAction;
import io.derive.engine.sql.ast.Statement.RowOperation;
import io.derive.engine.txn.Cancellation;
import io.derive.engine.txn.LockMode;

import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Realizes the row changes of one statement: writes each through the table's connection, hands
 * it to materialized-view maintenance (every realized change, cascades and {@code or replace}
 * deletions included), to foreign-key enforcement, and, for a table with CHECKs that read
 * tables, to the checks at commit ({@link DeferredRowChecks}). Also keeps the statement's
 * compiled {@link ConstraintChecker}s, one per table.
 *
 * <p>Each change first checks the transaction's {@link Cancellation}: a canceled statement
 * writes no further row.
 */
public final class RowWriter {
    private final ExecutionContext context;
    private final Cancellation cancellation;
    private final ForeignKeyEnforcer foreignKeys;
    /** By the table's storage, which names it within a statement without building its catalog key. */
    private final Map<HostedTable, ConstraintChecker> checkers = new IdentityHashMap<>(4);

    public RowWriter(ExecutionContext context) {
        this.context = context;
        this.cancellation = context.transaction().cancellation();
        this.foreignKeys = new ForeignKeyEnforcer(context, this);
    }

    public ConstraintChecker checker(TableSchema table) {
        ConstraintChecker checker = checkers.get(table.storage());
        if (checker == null) {
            checker = new ConstraintChecker(table, context.services().materializedViews().uniqueProbes(context, table),
                    context.transaction());
            checkers.put(table.storage(), checker);
        }
        return checker;
    }

    public TableConnection connection(TableSchema table) {
        return context.transaction().connection(table);
    }

    public void insert(TableSchema table, Object[] row) {
        cancellation.check();
        lock(table, row);
        connection(table).put(row);
        context.services().materializedViews().afterRowChange(context, table, null, row);
        foreignKeys.childWritten(table, null, row);
        checkAtCommit(table, RowOperation.INSERT, row);
    }

    public void update(TableSchema table, Object[] before, Object[] after) {
        cancellation.check();
        TableConnection connection = connection(table);
        TableShape shape = table.storage().shape();
        KeyOrder order = shape.keyOrder();
        Object[] oldKey = shape.keyOf(before);
        boolean moves = order.compare(oldKey, shape.keyOf(after)) != 0;
        lock(table, before);
        if (moves) {
            lock(table, after);
            connection.delete(oldKey);
        } else {
            lockUniqueValues(table, after);
        }
        connection.put(after);
        context.services().materializedViews().afterRowChange(context, table, before, after);
        foreignKeys.childWritten(table, before, after);
        foreignKeys.parentChanged(table, before, after);
        checkAtCommit(table, RowOperation.UPDATE, after);
    }

    /**
     * Locks, exclusive, the row image's key and unique values before the write stores or
     * replaces it: another transaction's uncommitted change of either is waited for, and one
     * that committed after this statement's snapshot runs the statement again.
     */
    private void lock(TableSchema table, Object[] image) {
        RowLocks.row(context.transaction(), table.storage(), table.storage().shape().keyOf(image), LockMode.EXCLUSIVE);
        lockUniqueValues(table, image);
    }

    private void lockUniqueValues(TableSchema table, Object[] image) {
        if (!table.constraints().indexes().isEmpty()) {
            checker(table).lockUniqueValues(image);
        }
    }

    private void checkAtCommit(TableSchema table, RowOperation operation, Object[] row) {
        if (!table.constraints().checks().isEmpty() && checker(table).checksAtCommit(operation)) {
            DeferredRowChecks.ordinary(context, table, operation, row);
        }
    }

    /**
     * Deletes a row: one the statement deletes, one a replace evicts, or one a foreign-key
     * action deletes. Each must pass the table's CHECKs on delete first (the row as OLD, NEW all NULL).
     */
    public void delete(TableSchema table, Object[] before) {
        cancellation.check();
        if (!table.constraints().checks().isEmpty()) {
            checker(table).checkChecks(RowOperation.DELETE, before, null, context.parameters());
        }
        lock(table, before);
        connection(table).delete(table.storage().shape().keyOf(before));
        context.services().materializedViews().afterRowChange(context, table, before, null);
        foreignKeys.parentDeleted(table, before);
    }

    /**
     * An update the engine makes on its own behalf (a foreign-key action): the new image obeys
     * every rule of its table, and a uniqueness conflict fails the statement.
     *
     * @return the image stored
     */
    public Object[] checkedUpdate(TableSchema table, Object[] before, Object[] after) {
        ConstraintChecker checker = checker(table);
        Object[] stored = checker.coerced(after);
        checker.checkNotNull(stored);
        checker.checkChecks(RowOperation.UPDATE, before, stored, Parameters.none());
        List<ConstraintChecker.Conflict> conflicts = checker.conflicts(connection(table), stored,
                table.storage().shape().keyOf(before), ConflictAction.ABORT);
        if (!conflicts.isEmpty()) {
            throw checker.uniqueViolation(conflicts.get(0));
        }
        update(table, before, stored);
        return stored;
    }

    /** The parent-side actions for a row of {@code parent} changed by the engine ({@code after} null: deleted). */
    void parentChanged(TableSchema parent, Object[] before, Object[] after) {
        if (after == null) {
            foreignKeys.parentDeleted(parent, before);
        } else {
            foreignKeys.parentChanged(parent, before, after);
        }
    }

    /** The statement's end: deferred foreign-key checks. */
    public void finish() {
        foreignKeys.verify();
    }
}
