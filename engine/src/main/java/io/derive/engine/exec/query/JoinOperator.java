package io.derive.engine.exec.query;

import io.derive.engine.exec.expr.Evaluator;
import io.derive.engine.exec.expr.ExpressionCompiler;
import io.derive.engine.exec.expr.Parameters;
import io.derive.engine.plan.PlanNode;
import io.derive.engine.spi.LookaheadCursor;
import io.derive.engine.spi.RowCursor;
import io.derive.engine.txn.Cancellation;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiPredicate;

/**
 * Executes a {@link PlanNode.Join}: an index lookup into the right table per left row when the
 * planner chose one, a hash join on the right keys ({@link EqualityKey}s, so values equal under
 * SQL comparison — 1 and 1.0, 'A' and 'a' under nocase — meet) when there are equality keys,
 * else a nested loop. Left and full
 * joins pad unmatched rows with NULLs; a NULL key never matches.
 */
final class JoinOperator {
    private final QueryExecutor executor;
    private final PlanNode.Join join;
    private final Evaluator[] leftKeys;
    private final Evaluator[] rightKeys;
    private final BiPredicate<Object[], Parameters> condition;
    /** For an index lookup into a filtered scan: the filter, compiled once. */
    private final BiPredicate<Object[], Parameters> rightFilter;
    private final int leftWidth;
    private final int rightWidth;

    JoinOperator(QueryExecutor executor, PlanNode.Join join) {
        this.executor = executor;
        this.join = join;
        this.leftKeys = join.leftKeys().stream().map(ExpressionCompiler::compile).toArray(Evaluator[]::new);
        this.rightKeys = join.rightKeys().stream().map(ExpressionCompiler::compile).toArray(Evaluator[]::new);
        this.condition = join.condition() == null ? null : ExpressionCompiler.predicate(join.condition());
        this.rightFilter = join.lookup() && join.right() instanceof PlanNode.Filter f
                ? ExpressionCompiler.predicate(f.predicate()) : null;
        this.leftWidth = join.left().columns().size();
        this.rightWidth = join.right().columns().size();
    }

    RowCursor open() {
        RowCursor left = executor.open(join.left());
        if (join.lookup()) {
            return probing(left, this::lookup, null);
        }
        Map<List<Object>, List<Object[]>> table = new HashMap<>();
        List<Object[]> all = new ArrayList<>();
        try (RowCursor right = executor.open(join.right())) {
            while (right.hasNext()) {
                Object[] row = right.next();
                all.add(row);
                Object[] key = keyOf(rightKeys, row);
                if (key != null) {
                    table.computeIfAbsent(EqualityKey.of(key, join.keyCollations()), k -> new ArrayList<>()).add(row);
                }
            }
        }
        Set<Object[]> matched = join.type() == PlanNode.JoinType.FULL
                ? Collections.newSetFromMap(new IdentityHashMap<>()) : null;
        Matcher matcher = leftRow -> {
            if (rightKeys.length == 0) {
                return all.iterator();
            }
            Object[] key = keyOf(leftKeys, leftRow);
            List<Object[]> rows = key == null ? null : table.get(EqualityKey.of(key, join.keyCollations()));
            return rows == null ? Collections.emptyIterator() : rows.iterator();
        };
        return probing(left, matcher, matched == null ? null : new Unmatched(all, matched));
    }

    /** The right rows that may match a left row, before the join condition. */
    private interface Matcher {
        Iterator<Object[]> candidates(Object[] leftRow);
    }

    /** For a full join: the right rows no left row matched, produced after the left side ends. */
    private record Unmatched(List<Object[]> all, Set<Object[]> matched) {
    }

    private Iterator<Object[]> lookup(Object[] leftRow) {
        Object[] prefix = keyOf(leftKeys, leftRow);
        if (prefix == null) {
            return Collections.emptyIterator();
        }
        PlanNode right = join.right();
        PlanNode source = right instanceof PlanNode.Filter f ? f.input() : right;
        List<Object[]> rows = new ArrayList<>();
        try (RowCursor cursor = source instanceof PlanNode.IndexScan index
                ? executor.indexScan(index, prefix) : executor.scan((PlanNode.TableScan) source, prefix)) {
            while (cursor.hasNext()) {
                Object[] row = cursor.next();
                if (rightFilter == null || rightFilter.test(row, executor.parameters())) {
                    rows.add(row);
                }
            }
        }
        return rows.iterator();
    }

    private RowCursor probing(RowCursor left, Matcher matcher, Unmatched unmatched) {
        boolean padLeft = join.type() != PlanNode.JoinType.INNER;
        Parameters parameters = executor.parameters();
        Cancellation cancellation = executor.cancellation();
        return new LookaheadCursor() {
            private Object[] current;
            private Iterator<Object[]> candidates = Collections.emptyIterator();
            private boolean currentMatched;
            private Iterator<Object[]> rest;

            @Override
            protected Object[] advance() {
                while (true) {
                    while (candidates.hasNext()) {
                        // The right rows are in memory: only this loop can stop a long join between two left rows.
                        cancellation.check();
                        Object[] rightRow = candidates.next();
                        Object[] row = QueryExecutor.concat(current, rightRow);
                        if (condition == null || condition.test(row, parameters)) {
                            currentMatched = true;
                            if (unmatched != null) {
                                unmatched.matched().add(rightRow);
                            }
                            return row;
                        }
                    }
                    if (current != null && !currentMatched && padLeft) {
                        Object[] row = QueryExecutor.concat(current, new Object[rightWidth]);
                        current = null;
                        return row;
                    }
                    if (!left.hasNext()) {
                        return unmatchedRight();
                    }
                    current = left.next();
                    currentMatched = false;
                    candidates = matcher.candidates(current);
                }
            }

            private Object[] unmatchedRight() {
                if (unmatched == null) {
                    return null;
                }
                if (rest == null) {
                    rest = unmatched.all().iterator();
                }
                while (rest.hasNext()) {
                    Object[] rightRow = rest.next();
                    if (!unmatched.matched().contains(rightRow)) {
                        return QueryExecutor.concat(new Object[leftWidth], rightRow);
                    }
                }
                return null;
            }

            @Override
            public void close() {
                left.close();
            }
        };
    }

    /** The key values of a row, or null when one is NULL (a NULL key matches nothing). */
    private Object[] keyOf(Evaluator[] keys, Object[] row) {
        Object[] key = new Object[keys.length];
        for (int i = 0; i < keys.length; i++) {
            key[i] = keys[i].eval(row, executor.parameters());
            if (key[i] == null) {
                return null;
            }
        }
        return key;
    }

}
