package io.derive.engine.exec;

import io.derive.engine.api.DeriveException;
import io.derive.engine.api.Result;
import io.derive.engine.plan.ExpressionBinder;
import io.derive.engine.plan.OutputColumn;
import io.derive.engine.plan.PlanNode;
import io.derive.engine.plan.QueryBinder;
import io.derive.engine.plan.Scope;
import io.derive.engine.schema.ColumnSchema;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.sql.ast.Expr;
import io.derive.engine.sql.ast.QualifiedName;
import io.derive.engine.sql.ast.Statement;
import io.derive.engine.spi.TableConnection;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Insert, update and delete: evaluates new rows, coerces them to the column types, checks NOT
 * NULL and the primary key, writes through the table's connection and hands every row change
 * to materialized-view maintenance.
 */
final class DmlExecutor {
    private final ExecutionContext context;

    DmlExecutor(ExecutionContext context) {
        this.context = context;
    }

    Result insert(Statement.Insert insert) {
        TableSchema table = writableTable(insert.table());
        int[] targets = targetColumns(table, insert);
        List<Object[]> sourceRows = new ArrayList<>();
        if (insert.rows() != null) {
            for (List<Expr> values : insert.rows()) {
                if (values.size() != targets.length) {
                    Expr first = values.get(0);
                    throw new DeriveException(DeriveException.SYNTAX, values.size() + " values for " + targets.length
                            + " columns", first.span().line(), first.span().column());
                }
                Object[] row = new Object[values.size()];
                for (int i = 0; i < row.length; i++) {
                    row[i] = ExpressionCompiler.compile(ExpressionBinder.bind(values.get(i), Scope.empty()))
                            .eval(new Object[0], context.parameters());
                }
                sourceRows.add(row);
            }
        } else {
            PlanNode plan = new QueryBinder(context.transaction().catalog(), context.sql()).bind(insert.select());
            if (plan.columns().size() != targets.length) {
                throw new DeriveException(DeriveException.SYNTAX, "table " + table.name() + " has " + targets.length
                        + " columns but the select produces " + plan.columns().size(),
                        insert.span().line(), insert.span().column());
            }
            sourceRows.addAll(context.queries().readAll(plan));
        }
        context.transaction().beginWrite();
        TableConnection connection = context.transaction().connection(table);
        for (Object[] values : sourceRows) {
            Object[] row = defaults(table);
            for (int i = 0; i < targets.length; i++) {
                row[targets[i]] = values[i];
            }
            row = checked(table, row);
            Object[] key = table.storage().shape().keyOf(row);
            if (connection.get(key).isPresent()) {
                throw keyConflict(table);
            }
            connection.put(row);
            context.services().materializedViews().afterRowChange(context, table, null, row);
        }
        return Result.ofCount(sourceRows.size());
    }

    Result update(Statement.Update update) {
        TableSchema table = writableTable(update.table());
        Scope scope = Scope.of(table.name(), columnsOf(table));
        int[] targets = new int[update.assignments().size()];
        Evaluator[] values = new Evaluator[targets.length];
        for (int i = 0; i < targets.length; i++) {
            Statement.Assignment a = update.assignments().get(i);
            targets[i] = table.columnIndex(a.column()).orElseThrow(() -> new DeriveException(
                    DeriveException.UNDEFINED_OBJECT, "no such column: " + a.column(), a.span().line(), a.span().column()));
            values[i] = ExpressionCompiler.compile(ExpressionBinder.bind(a.value(), scope));
        }
        List<Object[]> matched = matching(table, update.where(), scope);
        context.transaction().beginWrite();
        TableConnection connection = context.transaction().connection(table);
        var shape = table.storage().shape();
        var keyOrder = shape.keyOrder();
        for (Object[] before : matched) {
            Object[] after = Arrays.copyOf(before, before.length);
            for (int i = 0; i < targets.length; i++) {
                after[targets[i]] = values[i].eval(before, context.parameters());
            }
            after = checked(table, after);
            Object[] oldKey = shape.keyOf(before);
            Object[] newKey = shape.keyOf(after);
            if (keyOrder.compare(oldKey, newKey) != 0) {
                if (connection.get(newKey).isPresent()) {
                    throw keyConflict(table);
                }
                connection.delete(oldKey);
            }
            connection.put(after);
            context.services().materializedViews().afterRowChange(context, table, before, after);
        }
        return Result.ofCount(matched.size());
    }

    Result delete(Statement.Delete delete) {
        TableSchema table = writableTable(delete.table());
        List<Object[]> matched = matching(table, delete.where(), Scope.of(table.name(), columnsOf(table)));
        context.transaction().beginWrite();
        TableConnection connection = context.transaction().connection(table);
        var shape = table.storage().shape();
        for (Object[] before : matched) {
            connection.delete(shape.keyOf(before));
            context.services().materializedViews().afterRowChange(context, table, before, null);
        }
        return Result.ofCount(matched.size());
    }

    /** The rows a where clause selects, read completely before any is written. */
    private List<Object[]> matching(TableSchema table, Expr where, Scope scope) {
        PlanNode plan = where == null
                ? new PlanNode.TableScan(table, List.of())
                : QueryBinder.filteredScan(table, ExpressionBinder.bind(where, scope));
        return context.queries().readAll(plan);
    }

    private TableSchema writableTable(QualifiedName name) {
        TableSchema table = QueryBinder.resolveTable(context.transaction().catalog(), name.schema(), name.name(),
                name.span().line(), name.span().column());
        if (table.isMaintained()) {
            throw new DeriveException(DeriveException.READ_ONLY, "cannot write through materialized view '"
                    + table.qualifiedName() + "': its rows are maintained from its body",
                    name.span().line(), name.span().column());
        }
        return table;
    }

    private static int[] targetColumns(TableSchema table, Statement.Insert insert) {
        if (insert.columns().isEmpty()) {
            int[] all = new int[table.columns().size()];
            Arrays.setAll(all, i -> i);
            return all;
        }
        int[] targets = new int[insert.columns().size()];
        for (int i = 0; i < targets.length; i++) {
            String column = insert.columns().get(i);
            targets[i] = table.columnIndex(column).orElseThrow(() -> new DeriveException(
                    DeriveException.UNDEFINED_OBJECT, "table " + table.name() + " has no column named " + column,
                    insert.table().span().line(), insert.table().span().column()));
        }
        return targets;
    }

    private static Object[] defaults(TableSchema table) {
        Object[] row = new Object[table.columns().size()];
        for (int i = 0; i < row.length; i++) {
            row[i] = table.columns().get(i).defaultValue();
        }
        return row;
    }

    /** The row coerced to the column types, after the NOT NULL checks. */
    private static Object[] checked(TableSchema table, Object[] row) {
        Object[] stored = new Object[row.length];
        for (int i = 0; i < row.length; i++) {
            ColumnSchema c = table.columns().get(i);
            stored[i] = c.type().coerce(row[i], table.columnLabel(i));
            if (stored[i] == null && c.notNull()) {
                throw new DeriveException(DeriveException.CONSTRAINT, "NOT NULL constraint failed: " + table.columnLabel(i));
            }
        }
        return stored;
    }

    private static DeriveException keyConflict(TableSchema table) {
        StringBuilder columns = new StringBuilder();
        for (var part : table.primaryKey()) {
            columns.append(columns.isEmpty() ? "" : ", ").append(table.columnLabel(part.column()));
        }
        return new DeriveException(DeriveException.CONSTRAINT, "UNIQUE constraint failed: " + columns);
    }

    private static List<OutputColumn> columnsOf(TableSchema table) {
        return new PlanNode.TableScan(table, List.of()).columns();
    }
}
