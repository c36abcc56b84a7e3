package io.derive.engine.plan;

import io.derive.engine.api.DeriveException;
import io.derive.engine.schema.Catalog;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.schema.ViewSchema;
import io.derive.engine.sql.ast.Expr;
import io.derive.engine.sql.ast.IndexHint;
import io.derive.engine.sql.ast.Select;
import io.derive.engine.sql.ast.SourceSpan;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Turns a {@link Select} into a logical {@link PlanNode}: resolves sources (tables, views, common
 * tables, derived tables, table functions), every name (against the enclosing queries' rows too,
 * for correlated subqueries), aggregates and grouping, compound queries, ordering and limits. The
 * {@code from} clause is planned by {@link JoinPlanner}.
 */
public final class QueryBinder {
    private final Catalog catalog;
    private final String sql;
    private final NameResolutions names;
    private final Deque<Map<String, CommonTable>> commonTables = new ArrayDeque<>();
    private int recursionIds;

    /** A common table in scope; {@code recursionId} is set while its own recursive step is bound. */
    private static final class CommonTable {
        final Select.CommonTable definition;
        final boolean recursive;
        /** Set while the definition is bound: a name inside it then means a table, not itself. */
        boolean expanding;
        Integer recursionId;
        List<OutputColumn> recursionColumns;

        CommonTable(Select.CommonTable definition, boolean recursive) {
            this.definition = definition;
            this.recursive = recursive;
        }
    }

    /**
     * @param catalog the schema the query sees (its transaction's)
     * @param sql     the statement text the AST spans point into
     */
    public QueryBinder(Catalog catalog, String sql) {
        this(catalog, sql, NameResolutions.NONE);
    }

    /**
     * A binder that reports each name of {@code sql} it resolves to {@code names} (views the
     * query reads are bound from their own text, unreported).
     */
    public QueryBinder(Catalog catalog, String sql, NameResolutions names) {
        this.catalog = catalog;
        this.sql = sql;
        this.names = names;
    }

    /** Where the names this binder resolves are reported. */
    NameResolutions names() {
        return names;
    }

    public PlanNode bind(Select select) {
        return bind(select, List.of());
    }

    /** Binds an expression over one row scope; it may hold subqueries but no aggregates. */
    public BoundExpr bindExpression(Expr expr, Scope scope) {
        return new ExpressionBinder(this, List.of(scope), null).bind(expr);
    }

    /** A query evaluated inside rows of {@code outer} (innermost first): a subquery, a lateral or derived table. */
    PlanNode bind(Select select, List<Scope> outer) {
        Map<String, CommonTable> level = new HashMap<>();
        for (Select.CommonTable cte : select.with()) {
            level.put(cte.name().toLowerCase(Locale.ROOT), new CommonTable(cte, select.recursive()));
        }
        commonTables.push(level);
        try {
            PlanNode plan;
            if (select.compounds().isEmpty()) {
                plan = bindCore(select, select.orderBy(), outer);
            } else {
                plan = bindCore(select, List.of(), outer);
                for (Select.Compound c : select.compounds()) {
                    PlanNode right = bindCore(c.member(), List.of(), outer);
                    plan = setOperation(c, plan, right);
                }
                plan = sortCompound(plan, select.orderBy(), outer);
            }
            return limit(plan, select);
        } finally {
            commonTables.pop();
        }
    }

    private PlanNode setOperation(Select.Compound c, PlanNode left, PlanNode right) {
        if (left.columns().size() != right.columns().size()) {
            throw c.span().error(DeriveException.SYNTAX, "SELECTs to the left and right of " + c.operator().name().replace('_', ' ')
                    + " do not have the same number of result columns");
        }
        PlanNode.SetOperator op = PlanNode.SetOperator.valueOf(c.operator().name());
        return new PlanNode.SetOperation(op, left, right);
    }

    private PlanNode limit(PlanNode plan, Select select) {
        if (select.limit() == null) {
            return plan;
        }
        Expr offset = select.offset();
        return new PlanNode.Limit(plan, ExpressionBinder.bind(select.limit(), Scope.empty()),
                offset == null ? null : ExpressionBinder.bind(offset, Scope.empty()),
                select.limit().span(), offset == null ? null : offset.span());
    }

    /** {@code order by} of a compound: terms name output columns, by position, name, or expression over them. */
    private PlanNode sortCompound(PlanNode plan, List<Select.OrderTerm> terms, List<Scope> outer) {
        if (terms.isEmpty()) {
            return plan;
        }
        int width = plan.columns().size();
        Scope output = Scope.of(null, plan.columns());
        List<BoundExpr> projected = new ArrayList<>();
        for (int i = 0; i < width; i++) {
            OutputColumn c = plan.columns().get(i);
            projected.add(new BoundExpr.ColumnSlot(i, c.name(), c.type(), c.collation(), c.notNull()));
        }
        List<PlanNode.SortKey> keys = new ArrayList<>();
        for (Select.OrderTerm term : terms) {
            int slot;
            if (term.expr() instanceof Expr.Literal lit && lit.value() instanceof Long n) {
                slot = position(n, width, term.expr());
            } else {
                BoundExpr bound = scoped(output, outer, null).bind(term.expr());
                slot = projected.indexOf(bound);
                if (slot < 0) {
                    projected.add(bound);
                    slot = projected.size() - 1;
                }
            }
            keys.add(sortKey(slot, term));
        }
        return sortAndTrim(plan, projected, keys, width);
    }

    private static PlanNode.SortKey sortKey(int slot, Select.OrderTerm term) {
        boolean nullsFirst = term.nullsFirst() != null ? term.nullsFirst() : !term.descending();
        return new PlanNode.SortKey(slot, term.descending(), nullsFirst);
    }

    /** Sorts on the projected row (output columns plus hidden sort columns), then drops the hidden ones. */
    private static PlanNode sortAndTrim(PlanNode plan, List<BoundExpr> projected, List<PlanNode.SortKey> keys, int width) {
        List<OutputColumn> columns = new ArrayList<>(plan.columns());
        if (projected.size() > width) {
            List<OutputColumn> all = new ArrayList<>(columns);
            for (int i = width; i < projected.size(); i++) {
                BoundExpr e = projected.get(i);
                all.add(new OutputColumn("sort" + i, e.type(), e.collation(), false));
            }
            plan = new PlanNode.Project(plan, projected, all);
        }
        plan = KeyOrderedSort.sorted(plan, keys);
        return projected.size() > width ? trim(plan, columns) : plan;
    }

    private static PlanNode trim(PlanNode plan, List<OutputColumn> columns) {
        List<BoundExpr> kept = new ArrayList<>();
        for (int i = 0; i < columns.size(); i++) {
            OutputColumn c = columns.get(i);
            kept.add(new BoundExpr.ColumnSlot(i, c.name(), c.type(), c.collation(), c.notNull()));
        }
        return new PlanNode.Project(plan, kept, columns);
    }

    /** One select core with its own {@code order by} (empty inside a compound). */
    private PlanNode bindCore(Select core, List<Select.OrderTerm> orderBy, List<Scope> outer) {
        Relation from = core.from() == null
                ? new Relation.Leaf(new PlanNode.SingleRow(), Scope.empty(), 1)
                : relation(core.from(), outer);
        Scope scope = from.scope();
        BoundExpr where = core.where() == null ? null : scoped(scope, outer, null).bind(core.where());
        PlanNode input = JoinPlanner.plan(from, where);

        List<BoundExpr> groupKeys = new ArrayList<>();
        for (Expr g : core.groupBy()) {
            groupKeys.add(groupKey(g, core, scope, outer));
        }
        AggregateCollector aggregates = new AggregateCollector(groupKeys);
        ExpressionBinder items = scoped(scope, outer, aggregates);
        List<BoundExpr> outputs = new ArrayList<>();
        List<OutputColumn> columns = new ArrayList<>();
        for (Select.SelectItem item : core.items()) {
            expand(item, scope, items, outputs, columns);
        }
        BoundExpr having = core.having() == null ? null : items.bind(core.having());
        List<BoundExpr> projected = new ArrayList<>(outputs);
        List<PlanNode.SortKey> keys = new ArrayList<>();
        for (Select.OrderTerm term : orderBy) {
            keys.add(sortKey(orderSlot(term.expr(), core, columns, items, projected), term));
        }
        if (core.isGrouped() || !aggregates.isEmpty()) {
            projected.replaceAll(aggregates::rewrite);
            having = having == null ? null : aggregates.rewrite(having);
            input = aggregate(input, aggregates);
            if (having != null) {
                input = new PlanNode.Filter(input, having);
            }
        }
        List<OutputColumn> projectedColumns = new ArrayList<>(columns);
        for (int i = columns.size(); i < projected.size(); i++) {
            BoundExpr e = projected.get(i);
            projectedColumns.add(new OutputColumn("sort" + i, e.type(), e.collation(), false));
        }
        PlanNode plan = new PlanNode.Project(input, projected, projectedColumns);
        if (core.distinct()) {
            if (projected.size() > outputs.size()) {
                throw core.span().error(DeriveException.SYNTAX, "ORDER BY term of a SELECT DISTINCT must be in the result set");
            }
            plan = new PlanNode.Distinct(plan);
        }
        if (!keys.isEmpty()) {
            plan = KeyOrderedSort.sorted(plan, keys);
        }
        return projected.size() > outputs.size() ? trim(plan, columns) : plan;
    }

    private static PlanNode aggregate(PlanNode input, AggregateCollector aggregates) {
        List<OutputColumn> columns = new ArrayList<>();
        for (int i = 0; i < aggregates.groupKeys().size(); i++) {
            BoundExpr k = aggregates.groupKeys().get(i);
            columns.add(new OutputColumn("group" + i, k.type(), k.collation(), false));
        }
        for (int i = 0; i < aggregates.calls().size(); i++) {
            AggregateCall c = aggregates.calls().get(i);
            columns.add(new OutputColumn("aggregate" + i, c.type(), c.collation(), c.function().equals("count")));
        }
        return new PlanNode.Aggregate(input, aggregates.groupKeys(), aggregates.calls(), columns);
    }

    /** A {@code group by} term: an output position, an output alias, or an expression over the source. */
    private BoundExpr groupKey(Expr g, Select core, Scope scope, List<Scope> outer) {
        Expr target = g;
        if (g instanceof Expr.Literal lit && lit.value() instanceof Long n) {
            int slot = position(n, core.items().size(), g);
            if (!(core.items().get(slot) instanceof Select.Column c)) {
                throw g.span().error(DeriveException.SYNTAX, "GROUP BY term " + n + " is not an expression");
            }
            target = c.expr();
        } else if (g instanceof Expr.ColumnRef ref && ref.table() == null && scope.find(ref).isEmpty()) {
            for (Select.SelectItem item : core.items()) {
                if (item instanceof Select.Column c && c.alias() != null && c.alias().equalsIgnoreCase(ref.column())) {
                    target = c.expr();
                }
            }
        }
        return scoped(scope, outer, null).bind(target);
    }

    private ExpressionBinder scoped(Scope scope, List<Scope> outer, AggregateCollector aggregates) {
        List<Scope> chain = new ArrayList<>();
        chain.add(scope);
        chain.addAll(outer);
        return new ExpressionBinder(this, chain, aggregates);
    }

    // ---- from clause

    private Relation relation(Select.TableRef ref, List<Scope> outer) {
        if (ref instanceof Select.Join j) {
            return join(j, outer);
        }
        return source(ref, outer);
    }

    private Relation join(Select.Join j, List<Scope> outer) {
        Relation left = relation(j.left(), outer);
        if (isLateral(j.right())) {
            return lateral(j, left, outer);
        }
        Relation right = relation(j.right(), outer);
        Scope combined = Scope.combine(left.scope(), right.scope());
        List<String> using = new ArrayList<>(j.using());
        if (j.natural()) {
            using.addAll(commonColumns(left.scope(), right.scope()));
        }
        BoundExpr condition = null;
        if (!using.isEmpty()) {
            List<BoundExpr> equalities = new ArrayList<>();
            Set<Integer> merged = new HashSet<>();
            int leftWidth = left.scope().width();
            for (String column : using) {
                Expr.ColumnRef ref = new Expr.ColumnRef(null, column, j.span());
                Scope.Entry l = left.scope().find(ref).orElseThrow(() -> usingError(column, j));
                Scope.Entry r = right.scope().find(ref).orElseThrow(() -> usingError(column, j));
                names.joinColumn(j, column, l, r);
                BoundExpr ls = new BoundExpr.ColumnSlot(l.slot(), column, l.column().type(), l.column().collation(), false);
                BoundExpr rs = new BoundExpr.ColumnSlot(r.slot() + leftWidth, column, r.column().type(),
                        r.column().collation(), false);
                equalities.add(new BoundExpr.Call("=", null, List.of(ls, rs), io.derive.engine.types.SqlType.INTEGER,
                        ExpressionBinder.comparisonCollation(ls, rs), true));
                merged.add(r.slot() + leftWidth);
            }
            condition = BoundExpr.and(equalities);
            combined = combined.mergingAway(merged);
        }
        if (j.condition() != null) {
            BoundExpr on = scoped(combined, outer, null).bind(j.condition());
            condition = condition == null ? on : BoundExpr.and(List.of(condition, on));
        }
        return new Relation.Join(j.kind(), left, right, condition, combined);
    }

    private static DeriveException usingError(String column, Select.Join j) {
        return j.span().error(DeriveException.UNDEFINED_OBJECT, "cannot join using column " + column
                + " - column not present in both tables");
    }

    private static List<String> commonColumns(Scope left, Scope right) {
        Set<String> leftNames = new LinkedHashSet<>();
        for (Scope.Entry e : left.entries()) {
            if (!e.column().hidden() && !e.mergedAway()) {
                leftNames.add(e.column().name().toLowerCase(Locale.ROOT));
            }
        }
        List<String> common = new ArrayList<>();
        for (Scope.Entry e : right.entries()) {
            String name = e.column().name().toLowerCase(Locale.ROOT);
            if (!e.column().hidden() && leftNames.contains(name) && !common.contains(name)) {
                common.add(name);
            }
        }
        return common;
    }

    private static boolean isLateral(Select.TableRef ref) {
        return ref instanceof Select.TableFunction || (ref instanceof Select.Subquery s && s.lateral());
    }

    /**
     * A table function or lateral subquery on the right of a join: bound with the left row as its
     * enclosing row; when it reads that row, each left row evaluates it anew.
     */
    private Relation lateral(Select.Join j, Relation left, List<Scope> outer) {
        List<Scope> withLeft = new ArrayList<>();
        withLeft.add(left.scope());
        withLeft.addAll(outer);
        Relation.Leaf right = (Relation.Leaf) source(j.right(), withLeft);
        Scope combined = Scope.combine(left.scope(), right.scope());
        boolean outerJoin = j.kind() == Select.JoinKind.LEFT;
        if (j.kind() == Select.JoinKind.RIGHT || j.kind() == Select.JoinKind.FULL || !j.using().isEmpty() || j.natural()) {
            throw j.span().error(DeriveException.FEATURE_NOT_SUPPORTED, j.kind().name().toLowerCase(Locale.ROOT)
                    + " join of a table function or lateral subquery is not supported yet");
        }
        BoundExpr on = j.condition() == null ? null : scoped(combined, outer, null).bind(j.condition());
        if (on != null && outerJoin) {
            throw j.span().error(DeriveException.FEATURE_NOT_SUPPORTED, 
                    "left join of a table function with an on condition is not supported yet");
        }
        return new Relation.Apply(left, right.plan(), outerJoin, on, combined);
    }

    private Relation source(Select.TableRef ref, List<Scope> outer) {
        if (ref instanceof Select.TableFunction f) {
            return tableFunction(f, outer);
        }
        if (ref instanceof Select.Subquery s) {
            PlanNode plan = bind(s.query(), outer);
            return new Relation.Leaf(plan, Scope.of(s.alias(), plan.columns(), s), 1000);
        }
        if (ref instanceof Select.Join j) {
            return join(j, outer);
        }
        Select.NamedTable named = (Select.NamedTable) ref;
        String qualifierName = named.alias() != null ? named.alias() : named.name().name();
        if (named.name().schema() == null) {
            Optional<CommonTable> cte = commonTable(named.name().name()).filter(c -> !c.expanding);
            if (cte.isPresent()) {
                names.commonTable(named);
                PlanNode plan = commonTablePlan(cte.get(), named.span());
                return new Relation.Leaf(plan, Scope.of(qualifierName, plan.columns(), named), 1000);
            }
        }
        Optional<ViewSchema> view = catalog.view(named.name().schema(), named.name().name());
        if (view.isPresent()) {
            names.view(named, view.get());
            PlanNode plan = viewPlan(view.get());
            return new Relation.Leaf(plan, Scope.of(qualifierName, plan.columns(), named), 1000);
        }
        TableSchema table = resolveTable(catalog, named.name().schema(), named.name().name(),
                named.span().line(), named.span().column());
        if (table.isMaintained() && table.derivation().stale()) {
            requirePlannable(table, named.span());
        }
        names.table(named, table);
        PlanNode scan = hintedScan(table, named.hint());
        Scope scope = Scope.ofTable(qualifierName, scan.columns(), table.rowIdColumn().orElse(-1), named);
        return new Relation.Leaf(scan, scope, table.storage().committedRowCount());
    }

    /**
     * All rows of a table as its index clause asks: a scan of the index {@code indexed by}
     * names (filters pushed later make it a seek), or of the table, with or without its
     * secondary indexes for {@code not indexed}.
     */
    public static PlanNode hintedScan(TableSchema table, IndexHint hint) {
        if (hint instanceof IndexHint.IndexedBy by) {
            return new PlanNode.IndexScan(table, AccessPath.hintedIndex(table, by).name(), List.of());
        }
        return new PlanNode.TableScan(table, List.of(), null, null, hint instanceof IndexHint.NotIndexed);
    }

    /** A stale MV serves its last contents only while its body still plans (semantics §5). */
    private void requirePlannable(TableSchema mv, SourceSpan at) {
        try {
            new QueryBinder(catalog, mv.derivation().bodySql()).bind(mv.derivation().body());
        } catch (DeriveException e) {
            throw at.error(DeriveException.INVALID_DEFINITION, "materialized view '" + mv.qualifiedName()
                    + "' is stale; a source changed in an incompatible way — drop and recreate");
        }
    }

    private Relation tableFunction(Select.TableFunction f, List<Scope> outer) {
        SystemTableFunction fn = SystemTableFunction.named(f.name()).orElseThrow(() -> f.span().error(DeriveException.UNDEFINED_OBJECT, "no such table-valued function: " + f.name()));
        List<Scope> chain = new ArrayList<>();
        chain.add(Scope.empty());
        chain.addAll(outer);
        ExpressionBinder args = new ExpressionBinder(this, chain, null);
        List<BoundExpr> arguments = new ArrayList<>();
        for (Expr a : f.arguments()) {
            arguments.add(args.bind(a));
        }
        fn.checkArguments(arguments.size(), f.span());
        String qualifier = f.alias() != null ? f.alias() : f.name();
        return new Relation.Leaf(new PlanNode.FunctionScan(fn, arguments), Scope.of(qualifier, fn.columns()), 1000);
    }

    private PlanNode viewPlan(ViewSchema view) {
        PlanNode plan = new QueryBinder(catalog, view.bodySql()).bind(view.body());
        return renamed(plan, view.columnNames(), view.qualifiedName());
    }

    private Optional<CommonTable> commonTable(String name) {
        for (Map<String, CommonTable> level : commonTables) {
            CommonTable cte = level.get(name.toLowerCase(Locale.ROOT));
            if (cte != null) {
                return Optional.of(cte);
            }
        }
        return Optional.empty();
    }

    /**
     * The plan of a reference to a common table. Inside its own recursive step it is the working
     * table of the recursion; a recursive common table is the union of its anchor and its step.
     */
    private PlanNode commonTablePlan(CommonTable cte, SourceSpan at) {
        if (cte.recursionId != null) {
            return new PlanNode.WorkingTable(cte.recursionId, cte.recursionColumns);
        }
        Select query = cte.definition.query();
        boolean selfReferencing = cte.recursive && !query.compounds().isEmpty()
                && mentions(query.compounds().get(query.compounds().size() - 1).member(), cte.definition.name());
        if (!selfReferencing) {
            cte.expanding = true;
            try {
                return renamed(bind(query, List.of()), cte.definition.columns(), cte.definition.name());
            } finally {
                cte.expanding = false;
            }
        }
        Select.Compound step = query.compounds().get(query.compounds().size() - 1);
        if (step.operator() != Select.SetOperator.UNION && step.operator() != Select.SetOperator.UNION_ALL) {
            throw step.span().error(DeriveException.SYNTAX, "recursive common table '" + cte.definition.name()
                    + "' must be a UNION or UNION ALL of its anchor and its recursive step");
        }
        Select anchorQuery = new Select(List.of(), false, query.distinct(), query.items(), query.from(), query.where(),
                query.groupBy(), query.having(), query.compounds().subList(0, query.compounds().size() - 1),
                List.of(), null, null, query.span());
        PlanNode anchor = renamed(bind(anchorQuery, List.of()), cte.definition.columns(), cte.definition.name());
        int id = recursionIds++;
        cte.recursionId = id;
        cte.recursionColumns = anchor.columns();
        try {
            PlanNode stepPlan = bindCore(step.member(), List.of(), List.of());
            if (stepPlan.columns().size() != anchor.columns().size()) {
                throw step.span().error(DeriveException.SYNTAX, "the recursive step of '" + cte.definition.name()
                        + "' produces " + stepPlan.columns().size() + " columns but its anchor "
                        + anchor.columns().size());
            }
            PlanNode plan = new PlanNode.RecursiveUnion(id, anchor, stepPlan,
                    step.operator() == Select.SetOperator.UNION_ALL, anchor.columns());
            return query.orderBy().isEmpty() && query.limit() == null ? plan : limit(plan, query);
        } finally {
            cte.recursionId = null;
        }
    }

    /** Whether a select core reads the named table in its {@code from} (not looking into subqueries). */
    private static boolean mentions(Select core, String name) {
        return mentions(core.from(), name);
    }

    private static boolean mentions(Select.TableRef ref, String name) {
        if (ref instanceof Select.NamedTable t) {
            return t.name().schema() == null && t.name().name().equalsIgnoreCase(name);
        }
        if (ref instanceof Select.Join j) {
            return mentions(j.left(), name) || mentions(j.right(), name);
        }
        return false;
    }

    /** The plan with its output columns renamed by a declared column list (empty: unchanged). */
    private static PlanNode renamed(PlanNode plan, List<String> names, String object) {
        if (names.isEmpty()) {
            return plan;
        }
        List<OutputColumn> columns = plan.columns();
        if (names.size() != columns.size()) {
            throw new DeriveException(DeriveException.SYNTAX, object + " has " + names.size()
                    + " column names but its query produces " + columns.size() + " columns");
        }
        List<BoundExpr> exprs = new ArrayList<>();
        List<OutputColumn> out = new ArrayList<>();
        for (int i = 0; i < columns.size(); i++) {
            OutputColumn c = columns.get(i);
            exprs.add(new BoundExpr.ColumnSlot(i, c.name(), c.type(), c.collation(), c.notNull()));
            out.add(new OutputColumn(names.get(i), c.type(), c.collation(), c.notNull()));
        }
        return new PlanNode.Project(plan, exprs, out);
    }

    /** The table of that name, or {@code no such table: x} sited at the reference. */
    public static TableSchema resolveTable(Catalog catalog, String schema, String name, int line, int column) {
        return catalog.table(schema, name).orElseThrow(() -> new DeriveException(DeriveException.UNDEFINED_OBJECT,
                "no such table: " + (schema == null ? name : schema + "." + name), line, column));
    }

    // ---- select list and order by

    private void expand(Select.SelectItem item, Scope scope, ExpressionBinder binder, List<BoundExpr> outputs,
                        List<OutputColumn> columns) {
        if (item instanceof Select.Star star) {
            List<Scope.Entry> expanded = new ArrayList<>();
            for (Scope.Entry e : scope.entries()) {
                boolean visible = !e.column().hidden() && (star.table() != null || !e.mergedAway());
                if (visible && (star.table() == null || star.table().equalsIgnoreCase(e.qualifier()))) {
                    OutputColumn c = e.column();
                    outputs.add(new BoundExpr.ColumnSlot(e.slot(), c.name(), c.type(), c.collation(), c.notNull()));
                    columns.add(new OutputColumn(c.name(), c.type(), c.collation(), c.notNull(), false, c.origin()));
                    expanded.add(e);
                }
            }
            if (expanded.isEmpty()) {
                throw star.span().error(DeriveException.UNDEFINED_OBJECT, 
                        star.table() == null ? "no tables specified" : "no such table: " + star.table());
            }
            names.star(star, expanded);
            return;
        }
        Select.Column column = (Select.Column) item;
        BoundExpr bound = binder.bind(column.expr());
        String name = column.alias() != null ? column.alias() : ExpressionBinder.defaultName(column.expr(), sql);
        // an unaliased column reference publishes the referenced column's name, and so follows it
        ColumnOrigin origin = column.alias() == null && column.expr() instanceof Expr.ColumnRef ref
                ? binder.originOf(ref) : null;
        boolean notNull = Nullability.notNull(bound);
        outputs.add(bound);
        columns.add(new OutputColumn(name, bound.type(), bound.collation(), notNull, false, origin));
    }

    /**
     * The slot of the projected row an {@code order by} term sorts on: an output position
     * ({@code order by 2}), an output alias, or an expression over the source, appended as a
     * hidden column.
     */
    private int orderSlot(Expr e, Select select, List<OutputColumn> columns, ExpressionBinder binder,
                          List<BoundExpr> projected) {
        if (e instanceof Expr.Literal lit && lit.value() instanceof Long n) {
            return position(n, columns.size(), e);
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
        BoundExpr bound = binder.bind(e);
        int slot = projected.indexOf(bound);
        if (slot >= 0) {
            return slot;
        }
        projected.add(bound);
        return projected.size() - 1;
    }

    private static int position(long n, int width, Expr at) {
        if (n < 1 || n > width) {
            throw at.span().error(DeriveException.SYNTAX, "term out of range - should be between 1 and " + width);
        }
        return (int) (n - 1);
    }

}
