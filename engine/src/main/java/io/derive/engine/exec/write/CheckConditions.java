package io.derive.engine.exec.write;

import io.derive.engine.exec.context.ExecutionContext;
import io.derive.engine.exec.expr.Evaluator;
import io.derive.engine.exec.expr.ExpressionCompiler;
import io.derive.engine.exec.expr.Parameters;
import io.derive.engine.plan.BoundExpr;
import io.derive.engine.plan.ExpressionBinder;
import io.derive.engine.plan.QueryBinder;
import io.derive.engine.schema.Catalog;
import io.derive.engine.schema.CheckConstraint;
import io.derive.engine.schema.Numeric;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.sql.Parser;
import io.derive.engine.sql.ast.AstWalk;
import io.derive.engine.sql.ast.QualifiedName;
import io.derive.engine.sql.ast.Select;

import java.util.ArrayList;
import java.util.List;

/**
 * Binds and compiles CHECK conditions of a table. A row-local condition is bound over the row
 * alone; one that reads tables (holds a subquery) is re-read from its stored text and bound
 * against a catalog, so its subqueries read the tables that catalog names now (a stored AST's
 * spans point into whichever statement declared it, its text is its own). A bound condition may
 * be kept as long as that catalog's tables stand; a compiled one is for one use only (a
 * statement, a commit): a compiled subquery that reads no enclosing row keeps its rows.
 */
public final class CheckConditions {
    private CheckConditions() {
    }

    /** A bound condition of a check. */
    public record Bound(CheckConstraint check, BoundExpr condition) {

        /** The condition compiled for one use. */
        public Compiled compile() {
            return new Compiled(check, ExpressionCompiler.compile(condition));
        }
    }

    /** A compiled condition of a check, for one use. */
    public record Compiled(CheckConstraint check, Evaluator condition) {

        /** True when the condition is false for the row (NULL passes, as in SQL). */
        public boolean rejects(Object[] row, Parameters parameters) {
            Object value = condition.eval(row, parameters);
            return value != null && Boolean.FALSE.equals(Numeric.truth(value));
        }
    }

    /** A condition without subqueries, over the table's row. */
    public static Bound rowLocal(TableSchema table, CheckConstraint check) {
        return new Bound(check, ExpressionBinder.bind(check.condition(), IndexShapes.scopeOf(table)));
    }

    /**
     * A condition that reads tables, bound against {@code catalog}: evaluating it needs
     * parameters that run subqueries (a statement's, {@link ExecutionContext#parameters()}).
     *
     * @throws io.derive.engine.api.DeriveException when it does not bind, e.g. {@code no such
     *         table} for a table it reads that is gone, sited in the condition's own text
     */
    public static Bound reading(TableSchema table, CheckConstraint check, Catalog catalog) {
        return new Bound(check, new QueryBinder(catalog, check.sql())
                .bindExpression(Parser.parseExpression(check.sql()), IndexShapes.scopeOf(table)));
    }

    /** The tables (or views) the condition's subqueries name, as written; a common table's name may be among them. */
    public static List<QualifiedName> namesRead(CheckConstraint check) {
        List<QualifiedName> names = new ArrayList<>();
        for (Select.NamedTable t : AstWalk.nodes(check.condition(), Select.NamedTable.class)) {
            names.add(t.name());
        }
        return names;
    }
}
