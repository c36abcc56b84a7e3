package io.derive.engine.exec.write;

import io.derive.engine.exec.context.ExecutionContext;
import io.derive.engine.exec.expr.Evaluator;
import io.derive.engine.exec.expr.ExpressionCompiler;
import io.derive.engine.exec.expr.Parameters;
import io.derive.engine.plan.BoundExpr;
import io.derive.engine.plan.ExpressionBinder;
import io.derive.engine.plan.OutputColumn;
import io.derive.engine.plan.QueryBinder;
import io.derive.engine.plan.Scope;
import io.derive.engine.schema.Catalog;
import io.derive.engine.schema.CheckConstraint;
import io.derive.engine.schema.Numeric;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.sql.Parser;
import io.derive.engine.sql.ast.AstWalk;
import io.derive.engine.sql.ast.QualifiedName;
import io.derive.engine.sql.ast.Select;
import io.derive.engine.sql.ast.Statement;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Binds and compiles CHECK conditions of a table. A row-local condition is bound over the row
 * alone, or, when it names the {@code old.} / {@code new.} row images, over the images of a
 * write ({@link CheckConstraint}); one that reads tables (holds a subquery) is re-read from its
 * stored text and bound against a catalog, so its subqueries read the tables that catalog names
 * now (a stored AST's spans point into whichever statement declared it, its text is its own). A
 * bound condition may be kept as long as that catalog's tables stand; a compiled one is for one
 * use only (a statement, a commit): a compiled subquery that reads no enclosing row keeps its rows.
 */
public final class CheckConditions {
    private CheckConditions() {
    }

    /**
     * A bound condition of a check; {@code images} when it is bound over the images of a write:
     * the row its unqualified columns name, then OLD, then NEW.
     */
    public record Bound(CheckConstraint check, BoundExpr condition, boolean images) {

        /** The condition compiled for one use. */
        public Compiled compile() {
            return new Compiled(check, ExpressionCompiler.compile(condition), images);
        }
    }

    /** A compiled condition of a check, for one use. */
    public record Compiled(CheckConstraint check, Evaluator condition, boolean images) {

        /** True when the condition is false for a row written as an insert writes it (NULL passes, as in SQL). */
        public boolean rejects(Object[] row, Parameters parameters) {
            return rejects(null, row, parameters);
        }

        /**
         * True when the condition is false for a write from {@code before} to {@code after}:
         * {@code before} null for an insert, {@code after} null for a delete.
         */
        public boolean rejects(Object[] before, Object[] after, Parameters parameters) {
            Object[] width = before != null ? before : after;
            Object[] old = before != null ? before : new Object[width.length];
            Object[] now = after != null ? after : new Object[width.length];
            Object[] row = check.unqualifiedIsOld() ? old : now;
            if (images) {
                Object[] all = new Object[row.length * 3];
                System.arraycopy(row, 0, all, 0, row.length);
                System.arraycopy(old, 0, all, row.length, row.length);
                System.arraycopy(now, 0, all, row.length * 2, row.length);
                row = all;
            }
            Object value = condition.eval(row, parameters);
            return value != null && Boolean.FALSE.equals(Numeric.truth(value));
        }
    }

    /** A condition without subqueries, over the table's row (and its row images, when it names them). */
    public static Bound rowLocal(TableSchema table, CheckConstraint check) {
        boolean images = check.namesRowImages(table.name());
        return new Bound(check, ExpressionBinder.bind(check.condition(), scope(table.name(), IndexShapes.scopeOf(table),
                check)), images);
    }

    /**
     * The scope a condition of table {@code table} is bound in: {@code row}, the table's row; and
     * when it names them, {@code old.c} and {@code new.c}, which only a qualified reference names
     * (a table named {@code old} or {@code new} keeps its name for itself). An image that may be
     * all NULL (OLD of an insert, NEW of a delete) is bound as nullable, whatever the columns declare.
     */
    public static Scope scope(String table, Scope row, CheckConstraint check) {
        List<OutputColumn> nullable = row.entries().stream()
                .map(e -> new OutputColumn(e.column().name(), e.column().type(), e.column().collation(), false,
                        e.column().hidden()))
                .toList();
        boolean deletes = check.appliesTo(Statement.RowOperation.DELETE);
        Scope all = deletes && !check.unqualifiedIsOld() ? Scope.of(table, nullable) : row;
        if (!check.namesRowImages(table)) {
            return all;
        }
        int width = all.width();
        for (String image : List.of("old", "new")) {
            all = Scope.combine(all, Scope.of(image.equalsIgnoreCase(table) ? " " + image : image, nullable));
        }
        Set<Integer> qualifiedOnly = new HashSet<>();
        for (int slot = width; slot < all.width(); slot++) {
            qualifiedOnly.add(slot);
        }
        return all.mergingAway(qualifiedOnly);
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
                .bindExpression(Parser.parseExpression(check.sql()), IndexShapes.scopeOf(table)), false);
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
