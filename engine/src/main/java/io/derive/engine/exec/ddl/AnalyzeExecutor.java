package io.derive.engine.exec.ddl;

import io.derive.engine.api.Result;
import io.derive.engine.api.StatementKind;
import io.derive.engine.exec.context.ExecutionContext;
import io.derive.engine.exec.query.SystemTables;
import io.derive.engine.plan.QueryBinder;
import io.derive.engine.schema.Catalog;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.schema.TableStatistics;
import io.derive.engine.sql.ast.Statement;
import io.derive.engine.txn.Transaction;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code analyze [table]}: counts the rows of one table, or of every table (materialized views
 * included), as the transaction sees them, and keeps the counts in the catalog
 * ({@link TableSchema#analyzedRowCount()}, shown by {@code statistics()}). Being catalog state,
 * the statistics commit and roll back with the transaction, like DDL.
 */
public final class AnalyzeExecutor {
    private final ExecutionContext context;

    public AnalyzeExecutor(ExecutionContext context) {
        this.context = context;
    }

    public Result analyze(Statement.Analyze analyze) {
        Transaction txn = context.transaction();
        List<TableSchema> tables = new ArrayList<>();
        if (analyze.table() == null) {
            tables.addAll(txn.catalog().tables());
        } else {
            tables.add(QueryBinder.resolveTable(txn.catalog(), analyze.table().schema(), analyze.table().name(),
                    analyze.table().span().line(), analyze.table().span().column()));
        }
        txn.beginSchemaChange();
        Catalog next = txn.catalog();
        for (TableSchema table : tables) {
            next = next.with(table.withStatistics(new TableStatistics(SystemTables.rowCount(txn, table))));
        }
        txn.changeCatalog(next);
        return Result.empty(StatementKind.ANALYZE);
    }
}
