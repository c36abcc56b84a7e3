package io.derive.engine.exec.dml;

import io.derive.engine.api.DeriveException;
import io.derive.engine.api.Result;
import io.derive.engine.api.StatementKind;
import io.derive.engine.exec.context.ExecutionContext;
import io.derive.engine.exec.context.MaterializedViewOperations;
import io.derive.engine.exec.ddl.ViewDdl;
import io.derive.engine.exec.expr.Evaluator;
import io.derive.engine.exec.expr.ExpressionCompiler;
import io.derive.engine.exec.expr.Parameters;
import io.derive.engine.exec.write.ConflictFailure;
import io.derive.engine.exec.write.ConstraintChecker;
import io.derive.engine.exec.write.DerivedRowViolation;
import io.derive.engine.exec.write.IndexShapes;
import io.derive.engine.exec.write.RowIdAllocator;
import io.derive.engine.exec.write.RowWriter;
import io.derive.engine.plan.AccessPath;
import io.derive.engine.plan.BoundExpr;
import io.derive.engine.plan.PlanNode;
import io.derive.engine.plan.QueryBinder;
import io.derive.engine.plan.Scope;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.spi.TableConnection;
import io.derive.engine.sql.ast.Expr;
import io.derive.engine.sql.ast.IndexHint;
import io.derive.engine.sql.ast.QualifiedName;
import io.derive.engine.sql.ast.SourceSpan;
import io.derive.engine.sql.ast.Statement;
import io.derive.engine.sql.ast.Statement.ConflictAction;
import io.derive.engine.sql.ast.Statement.RowOperation;
import io.derive.engine.types.Collation;
import io.derive.engine.types.TextValue;
import io.derive.engine.types.ValueOrder;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;

/**
 * Insert, update and delete. Each new row is coerced to the column types and checked (NOT NULL,
 * the CHECKs on its operation, then PRIMARY KEY and UNIQUE); a violation is resolved by the
 * statement's conflict clause, or when it has none by the violated constraint's own {@code on
 * conflict …}, with SQLite's meanings: abort undoes the statement, fail keeps the rows written
 * before the failing one, ignore skips the row, replace deletes the conflicting rows first (a
 * NULL in a NOT NULL column takes its default), rollback ends the transaction. Rows are realized
 * through a {@link RowWriter} (MV maintenance, foreign keys, the CHECKs on delete).
 */
public final class DmlExecutor {
    private final ExecutionContext context;
    private final RowWriter writer;

    /** For a write rewritten through a materialized view: the body's filter an inserted row must meet. */
    private final java.util.function.BiPredicate<Object[], Parameters> viewFilter;
    private final TableSchema writtenView;
    /** For a write rewritten through a materialized view: per written column, the view's value to the source's. */
    private final List<java.util.function.UnaryOperator<Object>> writeBacks;

    public DmlExecutor(ExecutionContext context) {
        this(context, null, null, List.of());
    }

    private DmlExecutor(ExecutionContext context, TableSchema writtenView, java.util.function.BiPredicate<Object[], Parameters> viewFilter,
                        List<java.util.function.UnaryOperator<Object>> writeBacks) {
        this.context = context;
        this.writer = new RowWriter(context);
        this.writtenView = writtenView;
        this.viewFilter = viewFilter;
        this.writeBacks = writeBacks;
    }

    /** The executor of a statement rewritten to write through {@code view} to its source. */
    private DmlExecutor throughView(TableSchema view, MaterializedViewOperations.WriteThroughRewrite rewrite,
                                    TableSchema source) {
        java.util.function.BiPredicate<Object[], Parameters> filter = rewrite.filter() == null ? null
                : ExpressionCompiler.predicate(binder().bindExpression(rewrite.filter(), IndexShapes.scopeOf(source)));
        return new DmlExecutor(context, view, filter, rewrite.writeBacks());
    }

    /** The table a statement writes; a maintained table is written only through its source, never directly. */
    private TableSchema target(QualifiedName name) {
        TableSchema table = writableTable(name);
        if (table.isMaintained() && writtenView != null) {
            // The executor's second net (semantics §4): a rewritten write must not target a maintained table.
            throw new DeriveException(DeriveException.READ_ONLY, "cannot write through materialized view '"
                    + writtenView.qualifiedName() + "': it reads a materialized view", name.span().line(), name.span().column());
        }
        return table;
    }

    public Result insert(Statement.Insert insert) {
        // the lock first: the schema read next is then the one the writes will meet
        context.transaction().beginWrite();
        TableSchema table = target(insert.table());
        if (table.isMaintained()) {
            var rewrite = context.services().materializedViews().writeThrough(insert, table, context);
            Statement.Insert rewritten = (Statement.Insert) rewrite.statement();
            return throughView(table, rewrite, writableTable(rewritten.table())).insert(rewritten);
        }
        int[] targets = targetColumns(table, insert);
        List<Object[]> sourceRows = sourceRows(table, insert, targets);
        Returning returning = Returning.of(insert.returning(), table, context);
        UpsertClause upsert = insert.upsert() == null ? null : new UpsertClause(insert.upsert(), table, context);
        ConflictAction mode = insert.onConflict();
        TableConnection connection = writer.connection(table);
        ConstraintChecker checker = writer.checker(table);
        long changes = 0;
        boolean repeats = anyRepeated(targets);
        for (Object[] values : sourceRows) {
            Object[] row = defaults(table);
            if (repeats) {
                placeFirstOfRepeats(table, row, targets, values, insert.span());
            } else {
                for (int i = 0; i < targets.length; i++) {
                    row[targets[i]] = written(i, values[i]);
                }
            }
            RowIdAllocator.assign(table, context.transaction(), connection, row);
            if (viewFilter != null && !viewFilter.test(row, context.parameters())) {
                throw new DeriveException(DeriveException.CONSTRAINT, "new row for materialized view '"
                        + writtenView.qualifiedName() + "' contradicts its selection predicate");
            }
            Object[] written = insertRow(table, checker, connection, row, mode, upsert);
            if (written != null) {
                changes++;
                if (returning != null) {
                    returning.add(written);
                }
            }
        }
        writer.finish();
        return returning == null ? Result.ofCount(StatementKind.INSERT, changes) : returning.result(StatementKind.INSERT, changes);
    }

    /**
     * Inserts one row (or updates the conflicting row by the upsert clause); the stored image, or
     * null when skipped.
     *
     * @param mode the statement's {@code or …}; null when it has none
     */
    private Object[] insertRow(TableSchema table, ConstraintChecker checker, TableConnection connection, Object[] proposed,
                               ConflictAction mode, UpsertClause upsert) {
        Object[] row = passesRowChecks(checker, null, checker.coerced(proposed), mode);
        if (row == null) {
            return null;
        }
        List<ConstraintChecker.Conflict> conflicts = checker.conflicts(connection, row, null, mode);
        if (conflicts.isEmpty()) {
            writer.insert(table, row);
            return row;
        }
        if (upsert != null) {
            Optional<ConstraintChecker.Conflict> target = upsert.target(conflicts);
            if (target.isPresent()) {
                return upsert.apply(writer, target.get().existing(), row);
            }
        }
        if (!replaces(checker, conflicts, mode)) {
            return null;
        }
        deleteConflicting(table, connection, conflicts);
        writer.insert(table, row);
        return row;
    }

    /**
     * Whether every collision resolves to replace, so the colliding rows are to be deleted;
     * otherwise the first that does not is resolved (false: the row is skipped).
     */
    private boolean replaces(ConstraintChecker checker, List<ConstraintChecker.Conflict> conflicts, ConflictAction mode) {
        ConstraintChecker.Conflict first = conflicts.get(0);
        ConflictAction resolution = checker.resolution(mode, first);
        if (resolution == ConflictAction.REPLACE) {
            return true;
        }
        violated(resolution, checker.uniqueViolation(first));
        return false;
    }

    public Result update(Statement.Update update) {
        // the lock first: the schema read next is then the one the writes will meet
        context.transaction().beginWrite();
        TableSchema table = target(update.table());
        if (table.isMaintained()) {
            var rewrite = context.services().materializedViews().writeThrough(update, table, context);
            Statement.Update rewritten = (Statement.Update) rewrite.statement();
            return throughView(table, rewrite, writableTable(rewritten.table())).update(rewritten);
        }
        Scope scope = IndexShapes.scopeOf(table);
        int[] targets = new int[update.assignments().size()];
        Evaluator[] values = new Evaluator[targets.length];
        for (int i = 0; i < targets.length; i++) {
            Statement.Assignment a = update.assignments().get(i);
            targets[i] = column(table, a);
            values[i] = ExpressionCompiler.compile(binder().bindExpression(a.value(), scope));
        }
        Returning returning = Returning.of(update.returning(), table, context);
        ConflictAction mode = update.onConflict();
        List<Object[]> matched = matching(table, update.hint(), update.where(), scope);
        TableConnection connection = writer.connection(table);
        ConstraintChecker checker = writer.checker(table);
        var shape = table.storage().shape();
        long changes = 0;
        for (Object[] found : matched) {
            // an earlier row of this statement (a replace, a cascade) may have changed or removed it
            Optional<Object[]> current = connection.get(shape.keyOf(found));
            if (current.isEmpty()) {
                continue;
            }
            Object[] before = current.get();
            Object[] after = before.clone();
            for (int i = 0; i < targets.length; i++) {
                Object value = written(i, values[i].eval(before, context.parameters()));
                if (writtenView != null && repeated(targets, i)) {
                    requireAgreement(table, targets[i], after[targets[i]], value, update.span());
                }
                after[targets[i]] = value;
            }
            after = passesRowChecks(checker, before, checker.coerced(after), mode);
            if (after == null) {
                continue;
            }
            List<ConstraintChecker.Conflict> conflicts = checker.conflicts(connection, after, shape.keyOf(before), mode);
            if (!conflicts.isEmpty()) {
                if (!replaces(checker, conflicts, mode)) {
                    continue;
                }
                deleteConflicting(table, connection, conflicts);
            }
            writer.update(table, before, after);
            changes++;
            if (returning != null) {
                returning.add(after);
            }
        }
        writer.finish();
        return returning == null ? Result.ofCount(StatementKind.UPDATE, changes) : returning.result(StatementKind.UPDATE, changes);
    }

    public Result delete(Statement.Delete delete) {
        // the lock first: the schema read next is then the one the writes will meet
        context.transaction().beginWrite();
        TableSchema table = target(delete.table());
        if (table.isMaintained()) {
            var rewrite = context.services().materializedViews().writeThrough(delete, table, context);
            Statement.Delete rewritten = (Statement.Delete) rewrite.statement();
            return throughView(table, rewrite, writableTable(rewritten.table())).delete(rewritten);
        }
        Returning returning = Returning.of(delete.returning(), table, context);
        List<Object[]> matched = matching(table, delete.hint(), delete.where(), IndexShapes.scopeOf(table));
        TableConnection connection = writer.connection(table);
        var shape = table.storage().shape();
        long changes = 0;
        for (Object[] found : matched) {
            Optional<Object[]> current = connection.get(shape.keyOf(found));
            if (current.isPresent()) {
                writer.delete(table, current.get());
                changes++;
                if (returning != null) {
                    returning.add(current.get());
                }
            }
        }
        writer.finish();
        return returning == null ? Result.ofCount(StatementKind.DELETE, changes) : returning.result(StatementKind.DELETE, changes);
    }

    /**
     * Places an insert's values where a column is listed more than once: as SQLite does, the
     * first of its values is stored. Through a view, two of its columns that write one source
     * column (a pass-through and an invertible one, say) must agree.
     */
    private void placeFirstOfRepeats(TableSchema table, Object[] row, int[] targets, Object[] values, SourceSpan at) {
        boolean[] placed = new boolean[row.length];
        for (int i = 0; i < targets.length; i++) {
            Object value = written(i, values[i]);
            if (!placed[targets[i]]) {
                row[targets[i]] = value;
                placed[targets[i]] = true;
            } else if (writtenView != null) {
                requireAgreement(table, targets[i], row[targets[i]], value, at);
            }
        }
    }

    private static boolean anyRepeated(int[] targets) {
        for (int i = 1; i < targets.length; i++) {
            if (repeated(targets, i)) {
                return true;
            }
        }
        return false;
    }

    /** Whether the {@code i}th target column appeared before it among the targets. */
    private static boolean repeated(int[] targets, int i) {
        for (int j = 0; j < i; j++) {
            if (targets[j] == targets[i]) {
                return true;
            }
        }
        return false;
    }

    /** Both values as the source column stores them (a pass-through value is not coerced yet) must be equal. */
    private void requireAgreement(TableSchema source, int column, Object first, Object second, SourceSpan at) {
        var type = source.columns().get(column).type();
        String label = source.columnLabel(column);
        if (ValueOrder.compare(type.coerce(first, label), type.coerce(second, label), Collation.BINARY) != 0) {
            throw new DeriveException(DeriveException.DATA, "materialized view '" + writtenView.qualifiedName()
                    + "' writes source column '" + source.columns().get(column).name() + "' of '" + source.qualifiedName()
                    + "' through two of its columns, with " + shown(first) + " and " + shown(second)
                    + ": the values must agree", at.line(), at.column());
        }
    }

    private static String shown(Object value) {
        return value instanceof String text ? "'" + text + "'" : TextValue.of(value);
    }

    /** The value to store for the statement's {@code column}th written column: through a view, what its write-back makes of it. */
    private Object written(int column, Object value) {
        return writeBacks.isEmpty() ? value : writeBacks.get(column).apply(value);
    }

    /**
     * NOT NULL, then the CHECKs on the write's operation ({@code before} null: an insert, else an
     * update), as SQLite checks them; the row to go on with (a NULL that a replace resolution
     * filled with its column's default), or null when it is to be skipped.
     */
    private Object[] passesRowChecks(ConstraintChecker checker, Object[] before, Object[] row, ConflictAction mode) {
        Object[] filled = checker.withDefaultsForNulls(row, mode);
        ConstraintChecker.Violation violation = checker.notNullViolation(filled, mode);
        if (violation == null) {
            violation = checker.checkViolation(before == null ? RowOperation.INSERT : RowOperation.UPDATE, before, filled,
                    mode, context.parameters());
        }
        if (violation == null) {
            return filled;
        }
        violated(violation.resolution(), violation.error());
        return null;
    }

    /**
     * Carries out the resolution of a violation: returns for {@code ignore} (skip the row),
     * otherwise throws. A {@link DerivedRowViolation} is never a resolution's to mask: it aborts
     * the statement.
     */
    private void violated(ConflictAction resolution, DeriveException violation) {
        if (violation instanceof DerivedRowViolation) {
            throw violation;
        }
        switch (resolution) {
            case IGNORE:
                return;
            case FAIL:
                // the rows written so far stay, so their own deferred checks still apply
                writer.finish();
                throw new ConflictFailure(violation, ConflictFailure.Outcome.KEEP_STATEMENT_WORK);
            case ROLLBACK:
                throw new ConflictFailure(violation, ConflictFailure.Outcome.END_TRANSACTION);
            default:
                throw violation;
        }
    }

    private void deleteConflicting(TableSchema table, TableConnection connection, List<ConstraintChecker.Conflict> conflicts) {
        var shape = table.storage().shape();
        for (ConstraintChecker.Conflict c : conflicts) {
            Optional<Object[]> current = connection.get(shape.keyOf(c.existing()));
            if (current.isPresent()) {
                writer.delete(table, current.get());
            }
        }
    }

    /** The rows to insert, each holding the values for {@code targets}, read completely before any is written. */
    private List<Object[]> sourceRows(TableSchema table, Statement.Insert insert, int[] targets) {
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
                    row[i] = ExpressionCompiler.compile(binder().bindExpression(values.get(i), Scope.empty()))
                            .eval(new Object[0], context.parameters());
                }
                sourceRows.add(row);
            }
        } else if (insert.select() != null) {
            PlanNode plan = new QueryBinder(context.transaction().catalog(), context.sql()).bind(insert.select());
            if (plan.columns().size() != targets.length) {
                throw new DeriveException(DeriveException.SYNTAX, "table " + table.name() + " has " + targets.length
                        + " columns but the select produces " + plan.columns().size(),
                        insert.span().line(), insert.span().column());
            }
            sourceRows.addAll(context.queries().readAll(plan));
        } else {
            if (!insert.columns().isEmpty()) {
                throw new DeriveException(DeriveException.SYNTAX, "default values takes no column list",
                        insert.table().span().line(), insert.table().span().column());
            }
            sourceRows.add(new Object[0]);
        }
        return sourceRows;
    }

    /** The rows a where clause selects, reached as the statement's index clause asks, read completely before any is written. */
    private List<Object[]> matching(TableSchema table, IndexHint hint, Expr where, Scope scope) {
        PlanNode all = QueryBinder.hintedScan(table, hint);
        if (where == null) {
            return context.queries().readAll(all);
        }
        BoundExpr predicate = binder().bindExpression(where, scope);
        PlanNode plan = all instanceof PlanNode.IndexScan index
                ? AccessPath.filteredIndexScan(table, index.index(), predicate)
                : AccessPath.filteredScan(table, predicate, hint instanceof IndexHint.NotIndexed);
        return context.queries().readAll(plan);
    }

    private TableSchema writableTable(QualifiedName name) {
        ViewDdl.refuseWrite(context.transaction().catalog(), name);
        return QueryBinder.resolveTable(context.transaction().catalog(), name.schema(), name.name(),
                name.span().line(), name.span().column());
    }

    static int column(TableSchema table, Statement.Assignment a) {
        return table.columnIndex(a.column()).orElseThrow(() -> new DeriveException(
                DeriveException.UNDEFINED_OBJECT, "no such column: " + a.column(), a.span().line(), a.span().column()));
    }

    private static int[] targetColumns(TableSchema table, Statement.Insert insert) {
        if (insert.columns().isEmpty()) {
            if (insert.rows() == null && insert.select() == null) {
                return new int[0];
            }
            // the hidden rowid of a bag takes no value from a bare values list
            return IntStream.range(0, table.columns().size()).filter(i -> !table.columns().get(i).hidden()).toArray();
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
            row[i] = table.columns().get(i).currentDefault();
        }
        return row;
    }

    /** Binds this statement's expressions; they may hold subqueries, which read the transaction's state. */
    private QueryBinder binder() {
        return new QueryBinder(context.transaction().catalog(), context.sql());
    }
}
