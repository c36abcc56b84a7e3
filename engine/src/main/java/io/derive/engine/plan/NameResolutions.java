package io.derive.engine.plan;

import io.derive.engine.schema.TableSchema;
import io.derive.engine.schema.ViewSchema;
import io.derive.engine.sql.ast.Expr;
import io.derive.engine.sql.ast.Select;

import java.util.List;

/**
 * What a {@link QueryBinder} reports of the names in the text it binds, as it resolves each one:
 * for work that must know what a name of a query's text means, not only how it reads (carrying a
 * rename into the bodies that name the renamed object, where a same-named column of another
 * table must stay as it is).
 *
 * <p>Contract: only names of the bound text are reported, each time the binder resolves them (a
 * common table read twice reports its names twice); a view read by the query is bound from its
 * own text and reports nothing. Every method is called after the name resolved; a name that does
 * not resolve fails the binding instead. The binder reports in a fixed order for a given query
 * over a given catalog, so two bindings of the same query shape can be compared report by
 * report. The default methods ignore the report.
 */
public interface NameResolutions {

    /** Ignores every report: what a binder without an observer uses. */
    NameResolutions NONE = new NameResolutions() {
    };

    /** A {@code from} name bound to a stored table, plain or maintained. */
    default void table(Select.NamedTable ref, TableSchema table) {
    }

    /** A {@code from} name bound to a view. */
    default void view(Select.NamedTable ref, ViewSchema view) {
    }

    /** A {@code from} name bound to a common table of the query's {@code with}. */
    default void commonTable(Select.NamedTable ref) {
    }

    /**
     * A column reference bound to {@code entry}, found in the row scope {@code depth} levels out
     * (0: the row the expression is evaluated over; 1 and more: enclosing queries' rows).
     */
    default void column(Expr.ColumnRef ref, int depth, Scope.Entry entry) {
    }

    /** A {@code *} or {@code t.*} of a select list expanded to these entries, in output order. */
    default void star(Select.Star star, List<Scope.Entry> entries) {
    }

    /**
     * A column that a {@code using} list or a {@code natural} join matches by name: {@code left}
     * and {@code right} are its entries on each side.
     */
    default void joinColumn(Select.Join join, String column, Scope.Entry left, Scope.Entry right) {
    }
}
