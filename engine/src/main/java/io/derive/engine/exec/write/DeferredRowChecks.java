package io.derive.engine.exec.write;

import io.derive.engine.api.DeriveException;
import io.derive.engine.exec.context.EngineServices;
import io.derive.engine.exec.context.ExecutionContext;
import io.derive.engine.exec.context.MaterializedViewOperations;
import io.derive.engine.exec.context.Pragmas;
import io.derive.engine.exec.context.StatementWork;
import io.derive.engine.exec.expr.Parameters;
import io.derive.engine.schema.CheckConstraint;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.spi.HostedTable;
import io.derive.engine.spi.TableConnection;
import io.derive.engine.sql.ast.Statement.RowOperation;
import io.derive.engine.txn.Transaction;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The rows one statement wrote whose constraints are checked at commit, against the
 * transaction's final state (semantics §6): rows of ordinary tables with CHECKs that read tables,
 * and rows maintenance derived into a maintained table whose foreign keys or table-reading
 * CHECKs wait for commit (so that a parent added later in the transaction counts).
 *
 * <p>At the end of the statement the rows are handed to the transaction as one check
 * ({@link Transaction#checkBeforePrepare}): a failed statement hands nothing, and a rollback to a
 * savepoint discards what the statements after it handed. At commit each row is read again by
 * its key in the table as the catalog then names it (a rename in between is followed): a row no
 * longer there is not checked, a row changed since is checked as it is now. A failure fails the
 * commit, and the transaction rolls back.
 */
public final class DeferredRowChecks {

    /**
     * The keys of one table's rows, in its key order, each with the operations that wrote it (a
     * row is checked against the CHECKs on those), and whether maintenance derived them.
     */
    private record Rows(boolean derived, TreeMap<Object[], Set<RowOperation>> keys) {
    }

    private final Map<HostedTable, Rows> tables = new IdentityHashMap<>();
    private final List<HostedTable> order = new ArrayList<>();

    /** A row an insert or update wrote to an ordinary table that has CHECKs on that operation reading tables. */
    static void ordinary(ExecutionContext context, TableSchema table, RowOperation operation, Object[] row) {
        of(context).add(table, row, false, operation);
    }

    /**
     * A row maintenance wrote to a maintained table whose declared constraints include some that
     * wait for commit; {@link MaterializedViewOperations#validateAtCommit} checks it then.
     */
    public static void derived(ExecutionContext context, TableSchema mv, Object[] row) {
        of(context).add(mv, row, true, RowOperation.INSERT);
    }

    /** At the end of a statement that succeeded: hands its rows to the transaction's commit. */
    public static void schedule(ExecutionContext context) {
        DeferredRowChecks rows = context.work().existing(DeferredRowChecks.class);
        if (rows == null || rows.order.isEmpty()) {
            return;
        }
        context.work().remove(DeferredRowChecks.class);
        Transaction txn = context.transaction();
        EngineServices services = context.services();
        Pragmas pragmas = context.pragmas();
        txn.checkBeforePrepare(() -> rows.check(txn, services, pragmas));
    }

    private static DeferredRowChecks of(ExecutionContext context) {
        return context.work().part(DeferredRowChecks.class, DeferredRowChecks::new);
    }

    private void add(TableSchema table, Object[] row, boolean derived, RowOperation operation) {
        Rows rows = tables.get(table.storage());
        if (rows == null) {
            rows = new Rows(derived, new TreeMap<>(table.storage().shape().keyOrder()));
            tables.put(table.storage(), rows);
            order.add(table.storage());
        }
        rows.keys().computeIfAbsent(table.storage().shape().keyOf(row), k -> EnumSet.noneOf(RowOperation.class))
                .add(operation);
    }

    /** Runs at commit, in a context of its own whose pragmas are the session's as they are then. */
    private void check(Transaction txn, EngineServices services, Pragmas pragmas) {
        ExecutionContext commit = new ExecutionContext(txn, Parameters.none(), "", services, pragmas, null,
                new StatementWork());
        Map<HostedTable, TableSchema> current = new IdentityHashMap<>();
        for (TableSchema t : txn.catalog().tables()) {
            current.put(t.storage(), t);
        }
        for (HostedTable storage : order) {
            TableSchema table = current.get(storage);
            if (table == null) {
                continue; // dropped since: its rows are gone with it
            }
            List<Object[]> present = new ArrayList<>();
            List<Set<RowOperation>> writtenBy = new ArrayList<>();
            TableConnection connection = txn.connection(table);
            for (Map.Entry<Object[], Set<RowOperation>> key : tables.get(storage).keys().entrySet()) {
                connection.get(key.getKey()).ifPresent(row -> {
                    present.add(row);
                    writtenBy.add(key.getValue());
                });
            }
            if (present.isEmpty()) {
                continue;
            }
            if (tables.get(storage).derived() && table.isMaintained()) {
                services.materializedViews().validateAtCommit(commit, table, present);
                continue;
            }
            List<CheckConditions.Compiled> checks = readingChecks(table, commit);
            for (int i = 0; i < present.size(); i++) {
                for (CheckConditions.Compiled c : checks) {
                    boolean applies = writtenBy.get(i).stream().anyMatch(c.check()::appliesTo);
                    if (applies && c.rejects(present.get(i), commit.parameters())) {
                        throw ConstraintChecker.violation("CHECK constraint failed: " + c.check().label());
                    }
                }
            }
        }
    }

    private static List<CheckConditions.Compiled> readingChecks(TableSchema table, ExecutionContext commit) {
        List<CheckConditions.Compiled> checks = new ArrayList<>();
        for (CheckConstraint check : table.constraints().checks()) {
            if (check.readsTables()) {
                try {
                    checks.add(CheckConditions.reading(table, check, commit.transaction().catalog()).compile());
                } catch (DeriveException e) {
                    throw e.explained(" (in CHECK constraint " + check.label() + " of table '" + table.qualifiedName() + "')");
                }
            }
        }
        return checks;
    }
}
