package io.derive.engine.exec.query;

import io.derive.engine.api.InDoubtBranch;
import io.derive.engine.api.RefreshSchedule;
import io.derive.engine.api.RehydrateReport;
import io.derive.engine.plan.SystemTableFunction;
import io.derive.engine.schema.Catalog;
import io.derive.engine.schema.MaterializedViewStatistics;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.spi.RowCursor;
import io.derive.engine.spi.TableConnection;
import io.derive.engine.txn.LockTable;
import io.derive.engine.txn.PendingRehydrates;
import io.derive.engine.txn.TransactionCounters;
import io.derive.engine.txn.Transaction;

import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/** Produces the rows of the {@link SystemTableFunction}s, as the transaction sees the schema. */
public final class SystemTables {
    private final Supplier<RehydrateReport> rehydrateReport;
    private final Supplier<List<VerifyReports.Report>> verifyReports;
    private final Supplier<List<InDoubtBranch>> inDoubtBranches;
    private final Coverage coverage;
    private final LockTable locks;
    private final TransactionCounters transactions;
    private final PendingRehydrates pendingRehydrates;
    private final StatementTextCounters statementTexts;

    /**
     * What {@code materialized_views()} shows in its {@code covers} column: the constraint a
     * materialized view covers ({@code t(a)}), or null. The materialized-view manager knows it.
     */
    @FunctionalInterface
    public interface Coverage {
        String covers(Catalog catalog, TableSchema materializedView);
    }

    public SystemTables(Supplier<RehydrateReport> rehydrateReport, Supplier<List<InDoubtBranch>> inDoubtBranches,
                        Coverage coverage, LockTable locks, Supplier<List<VerifyReports.Report>> verifyReports,
                        TransactionCounters transactions, PendingRehydrates pendingRehydrates,
                        StatementTextCounters statementTexts) {
        this.transactions = transactions;
        this.statementTexts = statementTexts;
        this.pendingRehydrates = pendingRehydrates;
        this.rehydrateReport = rehydrateReport;
        this.verifyReports = verifyReports;
        this.locks = locks;
        this.inDoubtBranches = inDoubtBranches;
        this.coverage = coverage;
    }

    /** The rows of {@code function} called with already evaluated {@code arguments}, produced lazily where they can be. */
    public io.derive.engine.spi.RowCursor rows(SystemTableFunction function, List<Object> arguments,
                                               Transaction transaction) {
        return switch (function) {
            case MATERIALIZED_VIEWS -> Cursors.of(materializedViewRows(transaction));
            case SCHEMA -> Cursors.of(SchemaIntrospection.schema(transaction));
            case STATISTICS -> Cursors.of(statistics(transaction));
            case TABLE_INFO -> Cursors.of(SchemaIntrospection.tableInfo(arguments, transaction));
            case GENERATE_SERIES -> GenerateSeries.cursor(arguments);
            case REHYDRATE_REPORT -> Cursors.of(rehydrateReportRows(rehydrateReport.get()));
            case IN_DOUBT -> Cursors.of(inDoubtRows(inDoubtBranches.get()));
            case REHYDRATE_PENDING -> Cursors.of(PendingRehydrateRows.of(pendingRehydrates.all(), transaction.catalog()));
            case VERIFY_REPORT -> Cursors.of(verifyReports.get().stream().map(r -> new Object[] {r.schema(), r.name(),
                r.verifiedAt().toString(), r.missing(), r.extra(), r.differs(), r.repaired(), r.sample(), r.keyRange()}).toList());
            case LOCKS -> Cursors.of(lockRows(locks.rows()));
            case LOCK_WAITS -> {
                LockTable.Counters c = locks.counters();
                yield Cursors.of(List.<Object[]>of(new Object[] {c.waits(), c.deadlocks(), c.timeouts()}));
            }
            case TRANSACTION_COUNTS -> Cursors.of(List.<Object[]>of(new Object[] {transactions.open(),
                transactions.commits(), transactions.rollbacks(), transactions.prepares(), transactions.readOnly()}));
            case STATEMENT_CACHE -> Cursors.of(List.<Object[]>of(new Object[] {statementTexts.reusedCount(),
                statementTexts.parsedCount()}));
        };
    }

    private static List<Object[]> lockRows(List<LockTable.Row> locks) {
        List<Object[]> rows = new ArrayList<>(locks.size());
        for (LockTable.Row r : locks) {
            rows.add(new Object[] {r.transaction(), r.waiting(), r.object(), r.mode().name(), r.since().toString()});
        }
        return rows;
    }

    private static List<Object[]> inDoubtRows(List<InDoubtBranch> branches) {
        List<Object[]> rows = new ArrayList<>();
        for (InDoubtBranch b : branches) {
            rows.add(new Object[] {b.xid().toString(), b.state().label(), String.join(", ", b.touched()),
                b.decidedAt() == null ? null : b.decidedAt().toString()});
        }
        return rows;
    }

    private static List<Object[]> rehydrateReportRows(RehydrateReport report) {
        List<Object[]> rows = new ArrayList<>();
        for (RehydrateReport.Outcome o : report.views()) {
            rows.add(new Object[] {o.schema(), o.name(), o.action().name().toLowerCase(java.util.Locale.ROOT), o.reason(), null});
        }
        for (RehydrateReport.Repair r : report.storage()) {
            rows.add(new Object[] {r.schema(), r.table(), r.work().name().toLowerCase(java.util.Locale.ROOT), r.reason(), r.index()});
        }
        return rows;
    }

    private List<Object[]> materializedViewRows(Transaction transaction) {
        List<Object[]> rows = new ArrayList<>();
        for (TableSchema t : transaction.catalog().tables()) {
            if (!t.isMaintained()) {
                continue;
            }
            MaterializedViewStatistics statistics = t.derivation().statistics();
            RefreshSchedule schedule = t.derivation().schedule();
            Optional<MaterializedViewStatistics.LastRefresh> last = statistics.lastRefresh();
            rows.add(new Object[] {
                t.schema(), t.name(), t.module(), t.derivation().maintenance().arm(), t.derivation().stale(),
                rowCount(transaction, t), statistics.bodyEvaluations(),
                t.tags().json(), coverage.covers(transaction.catalog(), t),
                statistics.uniqueProbes(), statistics.probeRowsRead(),
                statistics.rowsMaintained(), seconds(statistics.maintenanceNanos()),
                statistics.refreshes(), seconds(statistics.refreshNanos()), statistics.refreshRows(),
                schedule == null ? null : schedule.text(),
                schedule == null ? null : schedule.next(Instant.now(), ZoneId.systemDefault()).toString(),
                last.map(l -> l.at().toString()).orElse(null), last.map(MaterializedViewStatistics.LastRefresh::outcome).orElse(null)
            });
        }
        return rows;
    }

    private static double seconds(long nanos) {
        return nanos / 1e9;
    }

    private static List<Object[]> statistics(Transaction transaction) {
        List<Object[]> rows = new ArrayList<>();
        for (TableSchema t : transaction.catalog().tables()) {
            t.analyzedRowCount().ifPresent(n -> rows.add(new Object[] {t.schema(), t.name(), n}));
        }
        return rows;
    }

    /**
     * The count the transaction sees: committed, unless its own pending writes change it ({@code analyze} counts so too).
     * A table it has not used yet has none, and stays unused: it may wait for an in-doubt branch.
     */
    public static long rowCount(Transaction transaction, TableSchema table) {
        TableConnection connection = transaction.registered(table.storage()).orElse(null);
        if (connection == null || !connection.hasPendingWrites()) {
            return table.storage().committedRowCount();
        }
        long n = 0;
        try (RowCursor cursor = connection.scan(new Object[0], false)) {
            while (cursor.hasNext()) {
                cursor.next();
                n++;
            }
        }
        return n;
    }
}
