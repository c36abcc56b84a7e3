package io.derive.engine.exec;

import io.derive.engine.api.DeriveException;
import io.derive.engine.plan.BoundExpr;
import io.derive.engine.plan.OutputColumn;
import io.derive.engine.plan.PlanNode;
import io.derive.engine.schema.Numeric;
import io.derive.engine.schema.ValueOrder;
import io.derive.engine.spi.RowCursor;
import io.derive.engine.txn.Transaction;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.TreeSet;
import java.util.function.BiPredicate;

/**
 * Runs a logical plan as a pipeline of pull-based operators over the transaction's table
 * connections, so a query reads its transaction's own writes.
 */
public final class QueryExecutor {
    private final Transaction transaction;
    private final Parameters parameters;
    private final SystemTables systemTables;

    public QueryExecutor(Transaction transaction, Parameters parameters, SystemTables systemTables) {
        this.transaction = transaction;
        this.parameters = parameters;
        this.systemTables = systemTables;
    }

    /** The plan's rows; the caller closes the cursor. */
    public RowCursor open(PlanNode node) {
        if (node instanceof PlanNode.TableScan scan) {
            Object[] prefix = new Object[scan.keyPrefix().size()];
            for (int i = 0; i < prefix.length; i++) {
                prefix[i] = ExpressionCompiler.compile(scan.keyPrefix().get(i)).eval(new Object[0], parameters);
            }
            return transaction.connection(scan.table()).scan(prefix, false);
        }
        if (node instanceof PlanNode.FunctionScan f) {
            List<Object> arguments = new ArrayList<>();
            for (BoundExpr a : f.arguments()) {
                arguments.add(ExpressionCompiler.compile(a).eval(new Object[0], parameters));
            }
            return Cursors.of(systemTables.rows(f.function(), arguments, transaction));
        }
        if (node instanceof PlanNode.SingleRow) {
            return Cursors.of(List.<Object[]>of(new Object[0]));
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
        PlanNode.Limit limit = (PlanNode.Limit) node;
        return limit(open(limit.input()), limit);
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
        long max = limit.limit() == null ? -1 : count(limit.limit(), "LIMIT");
        long skip = limit.offset() == null ? 0 : Math.max(0, count(limit.offset(), "OFFSET"));
        return new RowCursor() {
            private long skipped;
            private long produced;

            @Override
            public boolean hasNext() {
                while (skipped < skip && input.hasNext()) {
                    input.next();
                    skipped++;
                }
                return (max < 0 || produced < max) && input.hasNext();
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

    private long count(BoundExpr e, String clause) {
        Object v = ExpressionCompiler.compile(e).eval(new Object[0], parameters);
        if (v == null || v instanceof byte[]) {
            throw new DeriveException(DeriveException.DATA, clause + " must be an integer");
        }
        return Numeric.of(v).longValue();
    }

    private static Comparator<Object[]> rowOrder(List<OutputColumn> columns) {
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
