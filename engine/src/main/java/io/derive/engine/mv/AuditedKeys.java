package io.derive.engine.mv;

import io.derive.engine.api.DeriveException;
import io.derive.engine.exec.context.ExecutionContext;
import io.derive.engine.exec.expr.ExpressionCompiler;
import io.derive.engine.exec.write.IndexShapes;
import io.derive.engine.plan.AccessPath;
import io.derive.engine.plan.BoundExpr;
import io.derive.engine.plan.PlanNode;
import io.derive.engine.plan.PredicatePushdown;
import io.derive.engine.plan.QueryBinder;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.spi.TableShape;
import io.derive.engine.sql.ast.Expr;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * The keys a {@code verify materialized view … where} audits: the rows, stored or expected, whose
 * key satisfies the predicate. The predicate may read only the view's key columns, so a key falls
 * on the same side of it in the backing and in the body; a drifted key is then reported and
 * repaired by exactly one range, and the ranges of a batch job cover the view once.
 *
 * @param stored    the backing's rows in the range, in key order (a key seek where the predicate
 *                  bounds the key)
 * @param inRange   whether a row as the backing stores it (the body's rows after coercion to the
 *                  view's column types) lies in the range
 * @param predicate the range's predicate over the view's columns; null for every key
 */
record AuditedKeys(PlanNode stored, Predicate<Object[]> inRange, BoundExpr predicate) {

    /** Every key of {@code mv}. */
    static AuditedKeys all(TableSchema mv) {
        return new AuditedKeys(new PlanNode.TableScan(mv, List.of()), row -> true, null);
    }

    /**
     * The rows of {@code body} (the plan of the body of {@code mv}) a range may hold: the range's
     * predicate pushed into the body, so its sources are read by seeks where it bounds them,
     * when the body's key columns (all the predicate reads) are of the view's types and
     * collations (a key is then stored as the body gives it, and the predicate means the same on
     * both); else the whole body, which {@link #inRange} narrows after coercion.
     */
    PlanNode body(TableSchema mv, PlanNode body) {
        if (predicate == null) {
            return body;
        }
        for (TableShape.KeyPart part : mv.primaryKey()) {
            int i = part.column();
            if (body.columns().get(i).type() != mv.columns().get(i).type()
                    || body.columns().get(i).collation() != mv.columns().get(i).collation()) {
                return body;
            }
        }
        return PredicatePushdown.filter(body, predicate);
    }

    /**
     * The keys of {@code mv} that {@code where} selects.
     *
     * @throws DeriveException {@code INVALID_DEFINITION} at the predicate's line:column when it
     *                         reads a column outside the view's key or holds a subquery; the
     *                         binder's errors (unknown column, type) as a {@code select} would
     */
    static AuditedKeys where(TableSchema mv, Expr where, ExecutionContext context) {
        BoundExpr predicate = new QueryBinder(context.transaction().catalog(), context.sql())
                .bindExpression(where, IndexShapes.scopeOf(mv));
        Set<Integer> key = new TreeSet<>();
        for (TableShape.KeyPart part : mv.primaryKey()) {
            key.add(part.column());
        }
        String refused = refusal(predicate, key, mv);
        if (refused != null) {
            throw where.span().error(DeriveException.INVALID_DEFINITION, "verify of materialized view '"
                    + mv.qualifiedName() + "': its where may compare only the view's key columns ("
                    + String.join(", ", key.stream().map(i -> mv.columns().get(i).name()).toList()) + ") with values, but it " + refused);
        }
        var test = ExpressionCompiler.predicate(predicate);
        var parameters = context.parameters();
        // notIndexed: the audit merges the backing's rows in key order, which a secondary index does not give
        return new AuditedKeys(AccessPath.filteredScan(mv, predicate, true), row -> test.test(row, parameters), predicate);
    }

    /** Why {@code e} cannot bound an audit, or null when it reads key columns and values only. */
    private static String refusal(BoundExpr e, Set<Integer> key, TableSchema mv) {
        if (e instanceof BoundExpr.ColumnSlot column) {
            return key.contains(column.index()) ? null : "reads column " + mv.columns().get(column.index()).name();
        }
        if (e instanceof BoundExpr.Subquery) {
            return "holds a subquery";
        }
        if (e instanceof BoundExpr.Call call) {
            for (BoundExpr argument : call.arguments()) {
                String refused = refusal(argument, key, mv);
                if (refused != null) {
                    return refused;
                }
            }
        }
        if (!e.deterministic()) {
            return "is not deterministic";
        }
        return null;
    }
}
