package io.derive.engine.plan;

import io.derive.engine.api.DeriveException;
import io.derive.engine.schema.Catalog;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.sql.ast.Expr;
import io.derive.engine.sql.ast.Select;
import io.derive.engine.spi.TableShape;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Turns a {@link Select} into a logical {@link PlanNode}: resolves the source and every name,
 * and plans a prefix seek on the source's physical key when {@code where} fixes its leading
 * columns to constants or parameters.
 */
public final class QueryBinder {
    private final Catalog catalog;
    private final String sql;

    /**
     * @param catalog the schema the query sees (its transaction's)
     * @param sql     the statement text the AST spans point into
     */
    public QueryBinder(Catalog catalog, String sql) {
        this.catalog = catalog;
        this.sql = sql;
    }

    public PlanNode bind(Select select) {
        Source source = source(select.from());
        PlanNode plan = source.node();
        if (select.where() != null) {
            BoundExpr predicate = ExpressionBinder.bind(select.where(), source.scope());
            plan = new PlanNode.Filter(withSeek(plan, predicate), predicate);
        }
        List<BoundExpr> outputs = new ArrayList<>();
        List<OutputColumn> columns = new ArrayList<>();
        for (Select.SelectItem item : select.items()) {
            expand(item, source, outputs, columns);
        }
        List<PlanNode.SortKey> sortKeys = new ArrayList<>();
        List<BoundExpr> projected = new ArrayList<>(outputs);
        for (Select.OrderTerm term : select.orderBy()) {
            int slot = orderSlot(term.expr(), select, columns, outputs, source.scope(), projected);
            boolean nullsFirst = term.nullsFirst() != null ? term.nullsFirst() : !term.descending();
            sortKeys.add(new PlanNode.SortKey(slot, term.descending(), nullsFirst));
        }
        List<OutputColumn> projectedColumns = new ArrayList<>(columns);
        for (int i = columns.size(); i < projected.size(); i++) {
            BoundExpr e = projected.get(i);
            projectedColumns.add(new OutputColumn("sort" + i, e.type(), e.collation(), false));
        }
        plan = new PlanNode.Project(plan, projected, projectedColumns);
        if (select.distinct()) {
            if (projected.size() > outputs.size()) {
                throw new DeriveException(DeriveException.SYNTAX,
                        "ORDER BY term of a SELECT DISTINCT must be in the result set",
                        select.span().line(), select.span().column());
            }
            plan = new PlanNode.Distinct(plan);
        }
        if (!sortKeys.isEmpty()) {
            plan = new PlanNode.Sort(plan, sortKeys);
        }
        if (select.limit() != null) {
            plan = new PlanNode.Limit(plan, ExpressionBinder.bind(select.limit(), Scope.empty()),
                    select.offset() == null ? null : ExpressionBinder.bind(select.offset(), Scope.empty()));
        }
        if (projected.size() > outputs.size()) {
            List<BoundExpr> trim = new ArrayList<>();
            for (int i = 0; i < outputs.size(); i++) {
                OutputColumn c = columns.get(i);
                trim.add(new BoundExpr.ColumnSlot(i, c.name(), c.type(), c.collation(), c.notNull()));
            }
            plan = new PlanNode.Project(plan, trim, columns);
        }
        return plan;
    }

    /** A resolved {@code from} source and the names it makes visible. */
    public record Source(PlanNode node, Scope scope, TableSchema table) {
    }

    public Source source(Select.TableRef from) {
        if (from == null) {
            return new Source(new PlanNode.SingleRow(), Scope.empty(), null);
        }
        if (from instanceof Select.TableFunction f) {
            SystemTableFunction fn = SystemTableFunction.named(f.name()).orElseThrow(() -> new DeriveException(
                    DeriveException.UNDEFINED_OBJECT, "no such table-valued function: " + f.name(),
                    f.span().line(), f.span().column()));
            if (!f.arguments().isEmpty()) {
                throw new DeriveException(DeriveException.SYNTAX, f.name() + "() takes no arguments",
                        f.span().line(), f.span().column());
            }
            String qualifier = f.alias() != null ? f.alias() : f.name();
            return new Source(new PlanNode.FunctionScan(fn, List.of()), Scope.of(qualifier, fn.columns()), null);
        }
        Select.NamedTable named = (Select.NamedTable) from;
        TableSchema table = resolveTable(catalog, named.name().schema(), named.name().name(),
                named.span().line(), named.span().column());
        String qualifier = named.alias() != null ? named.alias() : table.name();
        PlanNode.TableScan scan = new PlanNode.TableScan(table, List.of());
        return new Source(scan, Scope.of(qualifier, scan.columns()), table);
    }

    /** The table of that name, or {@code no such table: x} sited at the reference. */
    public static TableSchema resolveTable(Catalog catalog, String schema, String name, int line, int column) {
        return catalog.table(schema, name).orElseThrow(() -> new DeriveException(DeriveException.UNDEFINED_OBJECT,
                "no such table: " + (schema == null ? name : schema + "." + name), line, column));
    }

    private void expand(Select.SelectItem item, Source source, List<BoundExpr> outputs, List<OutputColumn> columns) {
        if (item instanceof Select.Star star) {
            boolean any = false;
            for (Scope.Entry e : source.scope().entries()) {
                if (star.table() == null || star.table().equalsIgnoreCase(e.qualifier())) {
                    OutputColumn c = e.column();
                    outputs.add(new BoundExpr.ColumnSlot(e.slot(), c.name(), c.type(), c.collation(), c.notNull()));
                    columns.add(c);
                    any = true;
                }
            }
            if (!any) {
                throw new DeriveException(DeriveException.UNDEFINED_OBJECT,
                        star.table() == null ? "no tables specified" : "no such table: " + star.table(),
                        star.span().line(), star.span().column());
            }
            return;
        }
        Select.Column column = (Select.Column) item;
        BoundExpr bound = ExpressionBinder.bind(column.expr(), source.scope());
        String name = column.alias() != null ? column.alias() : ExpressionBinder.defaultName(column.expr(), sql);
        boolean notNull = bound instanceof BoundExpr.ColumnSlot slot && slot.notNull();
        outputs.add(bound);
        columns.add(new OutputColumn(name, bound.type(), bound.collation(), notNull));
    }

    /**
     * The slot of the projected row an {@code order by} term sorts on: an output position
     * ({@code order by 2}), an output alias, or an expression over the source, appended as a
     * hidden column.
     */
    private int orderSlot(Expr e, Select select, List<OutputColumn> columns, List<BoundExpr> outputs,
                          Scope scope, List<BoundExpr> projected) {
        if (e instanceof Expr.Literal lit && lit.value() instanceof Long n) {
            if (n < 1 || n > outputs.size()) {
                throw new DeriveException(DeriveException.SYNTAX, "ORDER BY term out of range - should be between 1 and "
                        + outputs.size(), e.span().line(), e.span().column());
            }
            return (int) (n - 1);
        }
        if (e instanceof Expr.ColumnRef ref && ref.table() == null) {
            for (int i = 0; i < columns.size(); i++) {
                Select.SelectItem item = select.items().size() == columns.size() ? select.items().get(i) : null;
                boolean aliased = item instanceof Select.Column c && c.alias() != null;
                if (aliased && columns.get(i).name().equalsIgnoreCase(ref.column())) {
                    return i;
                }
            }
        }
        BoundExpr bound = ExpressionBinder.bind(e, scope);
        for (int i = 0; i < projected.size(); i++) {
            if (projected.get(i).equals(bound)) {
                return i;
            }
        }
        projected.add(bound);
        return projected.size() - 1;
    }

    /** The rows of a table a predicate over its columns selects, by a key-prefix seek where it can. */
    public static PlanNode filteredScan(TableSchema table, BoundExpr predicate) {
        return new PlanNode.Filter(withSeek(new PlanNode.TableScan(table, List.of()), predicate), predicate);
    }

    /** The scan, narrowed to a key-prefix seek when the predicate fixes leading key columns. */
    private static PlanNode withSeek(PlanNode plan, BoundExpr predicate) {
        if (!(plan instanceof PlanNode.TableScan scan)) {
            return plan;
        }
        List<BoundExpr> conjuncts = new ArrayList<>();
        flattenAnd(predicate, conjuncts);
        List<BoundExpr> prefix = new ArrayList<>();
        for (TableShape.KeyPart part : scan.table().primaryKey()) {
            Optional<BoundExpr> value = equalityValue(conjuncts, part.column(), scan.table());
            if (value.isEmpty()) {
                break;
            }
            prefix.add(value.get());
        }
        return prefix.isEmpty() ? plan : new PlanNode.TableScan(scan.table(), prefix);
    }

    private static void flattenAnd(BoundExpr e, List<BoundExpr> out) {
        if (e instanceof BoundExpr.Call c && c.operator().equals("and")) {
            flattenAnd(c.arguments().get(0), out);
            flattenAnd(c.arguments().get(1), out);
        } else {
            out.add(e);
        }
    }

    /** A constant or parameter the conjuncts equate the column with, under the column's own collation. */
    private static Optional<BoundExpr> equalityValue(List<BoundExpr> conjuncts, int column, TableSchema table) {
        for (BoundExpr e : conjuncts) {
            if (!(e instanceof BoundExpr.Call c) || !c.operator().equals("=")
                    || c.collation() != table.columns().get(column).collation()) {
                continue;
            }
            BoundExpr left = c.arguments().get(0);
            BoundExpr right = c.arguments().get(1);
            if (isSlot(left, column) && isFree(right)) {
                return Optional.of(right);
            }
            if (isSlot(right, column) && isFree(left)) {
                return Optional.of(left);
            }
        }
        return Optional.empty();
    }

    private static boolean isSlot(BoundExpr e, int column) {
        return e instanceof BoundExpr.ColumnSlot s && s.index() == column;
    }

    /** An expression that reads no column: constants, parameters and deterministic calls of them. */
    private static boolean isFree(BoundExpr e) {
        if (e instanceof BoundExpr.Call c) {
            return c.deterministic() && c.arguments().stream().allMatch(QueryBinder::isFree);
        }
        return !(e instanceof BoundExpr.ColumnSlot);
    }
}
