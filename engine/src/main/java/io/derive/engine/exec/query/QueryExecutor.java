package io.derive.engine.exec.query;

import io.derive.engine.api.DeriveException;
import io.derive.engine.exec.expr.Evaluator;
import io.derive.engine.exec.expr.ExpressionCompiler;
import io.derive.engine.exec.expr.Parameters;
import io.derive.engine.plan.BoundExpr;
import io.derive.engine.plan.OutputColumn;
import io.derive.engine.plan.PlanNode;
import io.derive.engine.sql.ast.SourceSpan;
import io.derive.engine.spi.KeyRange;
import io.derive.engine.spi.LookaheadCursor;
import io.derive.engine.spi.RowCursor;
import io.derive.engine.txn.Cancellation;
import io.derive.engine.txn.Transaction;
import io.derive.engine.types.ValueOrder;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.TreeSet;
import java.util.function.BiPredicate;

/**
 * Runs a logical plan as a pipeline of pull-based operators over the transaction's table
 * connections, so a query reads its transaction's own writes.
 *
 * <p>Where rows enter the pipeline (table and function scans) or are made in a loop (recursive
 * common tables, joins) the transaction's {@link Cancellation} is checked before each row, so a
 * canceled statement stops at its next row.
 */
public final class QueryExecutor {
    private static final Object[] NO_ROW = new Object[0];

    private final Transaction transaction;
    private final Cancellation cancellation;
    private final Parameters parameters;
    private final SystemTables systemTables;
    /** The current round's rows of each recursive common table being evaluated, by id. */
    private final Map<Integer, List<Object[]>> workingTables;

    public QueryExecutor(Transaction transaction, Parameters parameters, SystemTables systemTables) {
        this(transaction, parameters, systemTables, new HashMap<>());
    }

    private QueryExecutor(Transaction transaction, Parameters parameters, SystemTables systemTables,
                          Map<Integer, List<Object[]>> workingTables) {
        this.transaction = transaction;
        this.cancellation = transaction.cancellation();
        this.workingTables = workingTables;
        this.systemTables = systemTables;
        this.parameters = parameters.withRunner(this::subqueryRows);
    }

    private List<Object[]> subqueryRows(PlanNode plan, Parameters p) {
        return with(p).readAll(plan);
    }

    /** An executor for the same statement evaluating with other bindings (another enclosing row). */
    QueryExecutor with(Parameters p) {
        return new QueryExecutor(transaction, p, systemTables, workingTables);
    }

    Parameters parameters() {
        return parameters;
    }

    Transaction transaction() {
        return transaction;
    }

    Cancellation cancellation() {
        return cancellation;
    }

    /** The plan's rows; the caller closes the cursor. */
    public RowCursor open(PlanNode node) {
        if (node instanceof PlanNode.TableScan scan) {
            return scan.isRange() ? rangeScan(scan) : scan(scan, evaluate(scan.keyPrefix()));
        }
        if (node instanceof PlanNode.IndexScan index) {
            return index.isRange() ? indexRangeScan(index) : indexScan(index, evaluate(index.prefix()));
        }
        if (node instanceof PlanNode.FunctionScan f) {
            return functionScan(f);
        }
        if (node instanceof PlanNode.SingleRow) {
            return Cursors.of(List.<Object[]>of(NO_ROW));
        }
        if (node instanceof PlanNode.Filter filter) {
            return filter(open(filter.input()), ExpressionCompiler.predicate(filter.predicate()));
        }
        if (node instanceof PlanNode.Project project) {
            return project(open(project.input()), project.expressions());
        }
        if (node instanceof PlanNode.Distinct distinct) {
            return distinct(open(distinct.input()), distinct.columns());
        }
        if (node instanceof PlanNode.Sort sort) {
            return sort(open(sort.input()), sort);
        }
        if (node instanceof PlanNode.Limit limit) {
            return limit(open(limit.input()), limit);
        }
        if (node instanceof PlanNode.Join join) {
            return new JoinOperator(this, join).open();
        }
        if (node instanceof PlanNode.Apply apply) {
            return apply(apply);
        }
        if (node instanceof PlanNode.Aggregate aggregate) {
            cancellation.check();
            return Cursors.of(HostAggregation.offer(aggregate, transaction)
                    .orElseGet(() -> new Aggregation(aggregate, parameters).run(open(aggregate.input()))));
        }
        if (node instanceof PlanNode.SetOperation set) {
            return Cursors.of(SetOperations.run(set, readAll(set.left()), readAll(set.right())));
        }
        if (node instanceof PlanNode.RecursiveUnion recursive) {
            return recursive(recursive);
        }
        PlanNode.WorkingTable working = (PlanNode.WorkingTable) node;
        return Cursors.of(workingTables.getOrDefault(working.id(), List.of()));
    }

    /** All rows of the plan, read to the end. */
    public List<Object[]> readAll(PlanNode node) {
        List<Object[]> rows = new ArrayList<>();
        try (RowCursor cursor = open(node)) {
            while (cursor.hasNext()) {
                rows.add(cursor.next());
            }
        }
        return rows;
    }

    /** The rows of a table whose key starts with {@code prefix}, as this transaction sees them. */
    RowCursor scan(PlanNode.TableScan scan, Object[] prefix) {
        var connection = transaction.connection(scan.table());
        if (prefix.length == scan.table().primaryKey().size()) {
            // The whole key: a point lookup, not a range scan.
            return cancelable(Cursors.of(connection.get(prefix).map(List::<Object[]>of).orElse(List.of())));
        }
        return cancelable(connection.scan(prefix, false));
    }

    /** The rows of a table whose index key starts with {@code prefix}, as this transaction sees them. */
    RowCursor indexScan(PlanNode.IndexScan scan, Object[] prefix) {
        return cancelable(transaction.connection(scan.table()).scanIndex(scan.index(), prefix));
    }

    private RowCursor rangeScan(PlanNode.TableScan scan) {
        KeyRange range = range(scan.keyPrefix(), scan.lower(), scan.upper());
        return range == null ? Cursors.of(List.of())
                : cancelable(transaction.connection(scan.table()).scan(range, false));
    }

    private RowCursor indexRangeScan(PlanNode.IndexScan scan) {
        KeyRange range = range(scan.prefix(), scan.lower(), scan.upper());
        return range == null ? Cursors.of(List.of())
                : cancelable(transaction.connection(scan.table()).scanIndex(scan.index(), range));
    }

    private RowCursor cancelable(RowCursor rows) {
        return Cursors.cancelable(rows, cancellation);
    }

    /** The evaluated range, or null when a bound is NULL: a comparison with NULL selects nothing. */
    private KeyRange range(List<BoundExpr> prefix, PlanNode.Bound lower, PlanNode.Bound upper) {
        Object low = lower == null ? null : evaluate(List.of(lower.value()))[0];
        Object high = upper == null ? null : evaluate(List.of(upper.value()))[0];
        if ((lower != null && low == null) || (upper != null && high == null)) {
            return null;
        }
        return new KeyRange(evaluate(prefix), low, lower != null && lower.inclusive(), high,
                upper != null && upper.inclusive());
    }

    Object[] evaluate(List<BoundExpr> expressions) {
        Object[] values = new Object[expressions.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = ExpressionCompiler.compile(expressions.get(i)).eval(NO_ROW, parameters);
        }
        return values;
    }

    private RowCursor functionScan(PlanNode.FunctionScan f) {
        List<Object> arguments = new ArrayList<>();
        for (Object v : evaluate(f.arguments())) {
            arguments.add(v);
        }
        return cancelable(systemTables.rows(f.function(), arguments, transaction));
    }

    private RowCursor apply(PlanNode.Apply apply) {
        RowCursor left = open(apply.left());
        int rightWidth = apply.right().columns().size();
        return new LookaheadCursor() {
            private Object[] current;
            private RowCursor right;

            @Override
            protected Object[] advance() {
                while (true) {
                    if (right != null && right.hasNext()) {
                        return concat(current, right.next());
                    }
                    if (right != null) {
                        right.close();
                        right = null;
                    }
                    if (!left.hasNext()) {
                        return null;
                    }
                    current = left.next();
                    right = with(parameters.withOuter(current)).open(apply.right());
                    if (!right.hasNext() && apply.outer()) {
                        right.close();
                        right = null;
                        return concat(current, new Object[rightWidth]);
                    }
                }
            }

            @Override
            public void close() {
                if (right != null) {
                    right.close();
                }
                left.close();
            }
        };
    }

    /**
     * SQLite's evaluation of a recursive common table: a queue seeded with the anchor's rows;
     * each row taken from it is produced and becomes the working table of one run of the step,
     * whose rows join the queue. Lazy, so an outer {@code limit} ends an unbounded recursion.
     */
    private RowCursor recursive(PlanNode.RecursiveUnion recursive) {
        java.util.ArrayDeque<Object[]> queue = new java.util.ArrayDeque<>(readAll(recursive.anchor()));
        TreeSet<Object[]> seen = recursive.all() ? null : new TreeSet<>(rowOrder(recursive.columns()));
        return new LookaheadCursor() {
            @Override
            protected Object[] advance() {
                while (!queue.isEmpty()) {
                    cancellation.check();
                    Object[] row = queue.poll();
                    if (seen != null && !seen.add(row)) {
                        continue;
                    }
                    workingTables.put(recursive.id(), List.<Object[]>of(row));
                    try {
                        queue.addAll(readAll(recursive.step()));
                    } finally {
                        workingTables.remove(recursive.id());
                    }
                    return row;
                }
                return null;
            }

            @Override
            public void close() {
                queue.clear();
            }
        };
    }

    static Object[] concat(Object[] left, Object[] right) {
        Object[] row = new Object[left.length + right.length];
        System.arraycopy(left, 0, row, 0, left.length);
        System.arraycopy(right, 0, row, left.length, right.length);
        return row;
    }

    private RowCursor filter(RowCursor input, BiPredicate<Object[], Parameters> predicate) {
        return new Cursors.Transforming(input) {
            @Override
            protected Object[] transform(Object[] row) {
                return predicate.test(row, parameters) ? row : null;
            }
        };
    }

    private RowCursor project(RowCursor input, List<BoundExpr> expressions) {
        Evaluator[] evaluators = expressions.stream().map(ExpressionCompiler::compile).toArray(Evaluator[]::new);
        return new Cursors.Transforming(input) {
            @Override
            protected Object[] transform(Object[] row) {
                Object[] out = new Object[evaluators.length];
                for (int i = 0; i < out.length; i++) {
                    out[i] = evaluators[i].eval(row, parameters);
                }
                return out;
            }
        };
    }

    private RowCursor distinct(RowCursor input, List<OutputColumn> columns) {
        TreeSet<Object[]> seen = new TreeSet<>(rowOrder(columns));
        return new Cursors.Transforming(input) {
            @Override
            protected Object[] transform(Object[] row) {
                return seen.add(row) ? row : null;
            }
        };
    }

    private RowCursor sort(RowCursor input, PlanNode.Sort sort) {
        List<Object[]> rows = new ArrayList<>();
        try (input) {
            while (input.hasNext()) {
                rows.add(input.next());
            }
        }
        List<OutputColumn> columns = sort.columns();
        Comparator<Object[]> order = null;
        for (PlanNode.SortKey key : sort.keys()) {
            int column = key.column();
            var collation = columns.get(column).collation();
            Comparator<Object[]> byKey = (a, b) -> {
                Object x = a[column];
                Object y = b[column];
                if (x == null || y == null) {
                    int c = x == null ? (y == null ? 0 : -1) : 1;
                    return key.nullsFirst() ? c : -c;
                }
                int c = ValueOrder.compare(x, y, collation);
                return key.descending() ? -c : c;
            };
            order = order == null ? byKey : order.thenComparing(byKey);
        }
        rows.sort(order);
        return Cursors.of(rows);
    }

    private RowCursor limit(RowCursor input, PlanNode.Limit limit) {
        long max = limit.limit() == null ? -1 : count(limit.limit(), limit.limitAt());
        long skip = limit.offset() == null ? 0 : Math.max(0, count(limit.offset(), limit.offsetAt()));
        return new RowCursor() {
            private long skipped;
            private long produced;

            @Override
            public boolean hasNext() {
                if (max >= 0 && produced >= max) {
                    return false;
                }
                while (skipped < skip && input.hasNext()) {
                    input.next();
                    skipped++;
                }
                return input.hasNext();
            }

            @Override
            public Object[] next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                produced++;
                return input.next();
            }

            @Override
            public void close() {
                input.close();
            }
        };
    }

    /**
     * A limit or offset as SQLite takes it: an integer, or a real or text that is one exactly
     * ({@code 2.0}, {@code '2'}, {@code '1e1'}); anything else, NULL included, is SQLite's
     * {@code datatype mismatch}, sited at the expression.
     */
    private long count(BoundExpr e, SourceSpan at) {
        Object v = ExpressionCompiler.compile(e).eval(NO_ROW, parameters);
        try {
            if (v instanceof Long l) {
                return l;
            }
            if (v instanceof Boolean b) {
                return b ? 1 : 0;
            }
            if (v instanceof Double d && Double.isFinite(d)) {
                return BigDecimal.valueOf(d).longValueExact();
            }
            if (v instanceof BigDecimal d) {
                return d.longValueExact();
            }
            if (v instanceof String s) {
                return new BigDecimal(s.strip()).longValueExact();
            }
        } catch (ArithmeticException | NumberFormatException notAnInteger) {
            // not an integer exactly: the mismatch below
        }
        throw at.error(DeriveException.DATA, "datatype mismatch");
    }

    /** Rows compared column by column under each column's collation: the identity of DISTINCT and UNION. */
    static Comparator<Object[]> rowOrder(List<OutputColumn> columns) {
        return (a, b) -> {
            for (int i = 0; i < columns.size(); i++) {
                int c = ValueOrder.compare(a[i], b[i], columns.get(i).collation());
                if (c != 0) {
                    return c;
                }
            }
            return 0;
        };
    }
}
