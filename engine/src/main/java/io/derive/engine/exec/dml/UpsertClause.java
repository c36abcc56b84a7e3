package io.derive.engine.exec.dml;

import io.derive.engine.api.DeriveException;
import io.derive.engine.exec.context.ExecutionContext;
import io.derive.engine.exec.expr.Evaluator;
import io.derive.engine.exec.expr.ExpressionCompiler;
import io.derive.engine.exec.expr.Parameters;
import io.derive.engine.exec.write.ConstraintChecker;
import io.derive.engine.exec.write.IndexShapes;
import io.derive.engine.exec.write.RowWriter;
import io.derive.engine.plan.ExpressionBinder;
import io.derive.engine.plan.PlanNode;
import io.derive.engine.plan.Scope;
import io.derive.engine.schema.IndexSchema;
import io.derive.engine.schema.Numeric;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.sql.ast.Statement;

import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code on conflict [(target)] do nothing | do update set … [where …]} of one insert, compiled:
 * which uniqueness conflicts it takes over, and the update it makes of the existing row. The
 * update's expressions see the existing row by the table's name and the proposed row as
 * {@code excluded}.
 */
final class UpsertClause {
    private final TableSchema table;
    /** The constraint named by the target: null with {@link #anyConstraint} for "any", else an index or the primary key. */
    private final IndexSchema targetIndex;
    private final boolean anyConstraint;
    private final int[] columns;
    private final Evaluator[] values;
    private final Evaluator where;
    private final Parameters parameters;

    UpsertClause(Statement.Upsert upsert, TableSchema table, ExecutionContext context) {
        this.table = table;
        this.parameters = context.parameters();
        this.anyConstraint = upsert.target().isEmpty();
        this.targetIndex = anyConstraint ? null : target(upsert, table);
        // an unqualified name means the existing row's column, as in SQLite; excluded.x must be qualified
        Scope existing = IndexShapes.scopeOf(table);
        Set<Integer> excludedSlots = new HashSet<>();
        for (int i = 0; i < existing.width(); i++) {
            excludedSlots.add(existing.width() + i);
        }
        Scope scope = Scope.combine(existing, Scope.of("excluded", new PlanNode.TableScan(table, List.of()).columns()))
                .mergingAway(excludedSlots);
        columns = new int[upsert.assignments().size()];
        values = new Evaluator[columns.length];
        for (int i = 0; i < columns.length; i++) {
            Statement.Assignment a = upsert.assignments().get(i);
            columns[i] = DmlExecutor.column(table, a);
            values[i] = ExpressionCompiler.compile(ExpressionBinder.bind(a.value(), scope));
        }
        where = upsert.where() == null ? null : ExpressionCompiler.compile(ExpressionBinder.bind(upsert.where(), scope));
    }

    /** The unique index the target names, or null for the primary key. */
    private static IndexSchema target(Statement.Upsert upsert, TableSchema table) {
        Set<Integer> named = new HashSet<>();
        for (Statement.KeyColumn k : upsert.target()) {
            named.add(table.columnIndex(k.name()).orElseThrow(() -> new DeriveException(DeriveException.UNDEFINED_OBJECT,
                    "no such column: " + k.name(), k.span().line(), k.span().column())));
        }
        Set<Integer> primaryKey = new HashSet<>();
        table.primaryKey().forEach(p -> primaryKey.add(p.column()));
        if (!table.isBag() && named.equals(primaryKey)) {
            return null;
        }
        for (IndexSchema index : table.constraints().indexes()) {
            Set<Integer> indexed = new HashSet<>();
            index.columns().forEach(c -> indexed.add(c.column()));
            if (index.unique() && indexed.equals(named) && (index.where() == null || upsert.targetWhere() != null)) {
                return index;
            }
        }
        throw new DeriveException(DeriveException.INVALID_DEFINITION,
                "ON CONFLICT clause does not match any PRIMARY KEY or UNIQUE constraint",
                upsert.span().line(), upsert.span().column());
    }

    /** The conflict this clause takes over, if any of them is on its target. */
    Optional<ConstraintChecker.Conflict> target(List<ConstraintChecker.Conflict> conflicts) {
        if (anyConstraint) {
            return Optional.of(conflicts.get(0));
        }
        for (ConstraintChecker.Conflict c : conflicts) {
            if (c.index() == targetIndex) {
                return Optional.of(c);
            }
        }
        return Optional.empty();
    }

    /** Does nothing, or updates {@code existing} (when the where clause holds); the stored image or null. */
    Object[] apply(RowWriter writer, Object[] existing, Object[] proposed) {
        if (columns.length == 0) {
            return null;
        }
        Object[] combined = new Object[existing.length + proposed.length];
        System.arraycopy(existing, 0, combined, 0, existing.length);
        System.arraycopy(proposed, 0, combined, existing.length, proposed.length);
        if (where != null && !Boolean.TRUE.equals(Numeric.truth(where.eval(combined, parameters)))) {
            return null;
        }
        Object[] after = existing.clone();
        for (int i = 0; i < columns.length; i++) {
            after[columns[i]] = values[i].eval(combined, parameters);
        }
        return writer.checkedUpdate(table, existing, after);
    }
}
