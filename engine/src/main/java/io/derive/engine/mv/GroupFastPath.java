package io.derive.engine.mv;

import io.derive.engine.exec.context.ExecutionContext;
import io.derive.engine.exec.expr.Evaluator;
import io.derive.engine.exec.expr.ExpressionCompiler;
import io.derive.engine.exec.expr.Parameters;
import io.derive.engine.exec.query.EqualityKey;
import io.derive.engine.exec.query.QueryExecutor;
import io.derive.engine.plan.BoundExpr;
import io.derive.engine.plan.PlanNode;
import io.derive.engine.spi.HostedTable;
import io.derive.engine.spi.KeyOrder;
import io.derive.engine.spi.MaintenanceOp;
import io.derive.engine.spi.RowCursor;
import io.derive.engine.spi.TableShape;
import io.derive.engine.txn.LockMode;
import io.derive.engine.txn.Transaction;
import io.derive.engine.types.Collation;
import io.derive.engine.types.ValueOrder;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiPredicate;

/**
 * The fast path of the group arm (semantics §4.2) for a body whose aggregates are all
 * decomposable ({@link GroupAlgebra}): each source row change is applied to its groups' states
 * as a delta — the old row's contribution out, the new row's in — and at statement end each
 * touched group's row is published from its state, with no read of the group's other rows.
 * Reads of the source remain only where the algebra cannot answer:
 * <ul>
 *   <li>a retracted {@code min}/{@code max} is looked up by an index seek ({@link ExtremeSeek});</li>
 *   <li>a group the store does not know (first touch, forgotten, or one whose state a change
 *       could not take exactly) is derived from its rows, as the slice recompute reads them —
 *       also when no index serves a retracted extreme;</li>
 *   <li>a group whose {@code sum}/{@code total}/{@code avg} has non-integer arguments, or whose
 *       state cannot be kept, is published by the slice recompute (its caller's job).</li>
 * </ul>
 * The MV equals a fresh evaluation of its body after every statement, as with the slice recompute.
 */
final class GroupFastPath {
    /**
     * How the fast path reads the source, each with whether it meets rows in physical-key order
     * (the body's scan order): rows a secondary index hands out in its own order are not sorted
     * back for deriving states — a tie of unequal extremes is then left unknown and sought.
     *
     * @param group one group's rows in scope, through parameters {@code parameterPrefix + i}
     * @param all   every row in scope
     */
    record Rows(PlanNode group, boolean groupInKeyOrder, PlanNode all, boolean allInKeyOrder) {
    }

    /** What statement end gives the arm: backing ops, and the groups to publish by slice recompute. */
    record Outcome(List<MaintenanceOp> ops, List<Object[]> recompute) {
    }

    private final GroupAlgebra algebra;
    private final BiPredicate<Object[], Parameters> scope;
    private final int[] sourceColumns;
    private final int[] sourceKey;
    private final List<Collation> collations;
    /** The order two groups of one row change are locked in. */
    private final KeyOrder groupOrder;
    private final Rows rows;
    private final String parameterPrefix;
    private final BiPredicate<Object[], Parameters> having;
    private final Evaluator[] projection;
    private final int[] outputPositions;
    private final TableShape backing;
    private final ExtremeSeek seek;
    private final GroupStateStore store = new GroupStateStore();

    /**
     * @param where           the body's {@code where} over a source row, or null
     * @param sourceColumns   the source columns of the group key
     * @param sourceKey       the source columns of its physical key
     * @param rows            how the source is read for deriving states
     * @param havingPredicate the body's {@code having} over the aggregate row, or null
     * @param projection      the body's outputs over the aggregate row (group keys, then aggregates)
     * @param outputPositions where each group-key value is published in the MV's rows
     */
    GroupFastPath(String source, GroupAlgebra algebra, BoundExpr where, int[] sourceColumns, int[] sourceKey,
                  List<Collation> collations, Rows rows, String parameterPrefix,
                  BoundExpr havingPredicate, List<BoundExpr> projection,
                  int[] outputPositions, TableShape backing) {
        this.algebra = algebra;
        this.scope = where == null ? null : ExpressionCompiler.predicate(where);
        this.sourceColumns = sourceColumns;
        this.sourceKey = sourceKey;
        this.collations = List.copyOf(collations);
        this.groupOrder = new KeyOrder(collations, Collections.nCopies(collations.size(), false));
        this.rows = rows;
        this.parameterPrefix = parameterPrefix;
        this.having = havingPredicate == null ? null : ExpressionCompiler.predicate(havingPredicate);
        this.projection = projection.stream().map(ExpressionCompiler::compile).toArray(Evaluator[]::new);
        this.outputPositions = outputPositions;
        this.backing = backing;
        this.seek = new ExtremeSeek(source, sourceColumns, collations, algebra, scope);
    }

    /** The groups' states. */
    GroupStateStore store() {
        return store;
    }

    /**
     * Applies one source row change ({@code before} or {@code after} null for an insert or a
     * delete) to the working states of the groups it touches. A change that leaves the row at
     * its physical key in its group with identical arguments touches nothing; one that moves its
     * physical key may change which of equal extremes is first in scan order, so it counts.
     *
     * @param sourceInStep whether the backing holds what the store's states publish: true for a
     *                     plain source table, whose rows the states are derived from; a source
     *                     view's rows can fall behind this view's (refilled after a wait, while
     *                     this one was adopted)
     */
    void record(Transaction transaction, HostedTable backingStorage, GroupChanges changes, boolean sourceInStep,
                Object[] before, Object[] after) {
        Object[] oldKey = before != null && inScope(before) ? groupOf(before) : null;
        Object[] newKey = after != null && inScope(after) ? groupOf(after) : null;
        Object[] oldArguments = oldKey == null ? null : algebra.arguments(before);
        Object[] newArguments = newKey == null ? null : algebra.arguments(after);
        if (oldKey != null && newKey != null && ValueOrder.identicalRows(oldKey, newKey)
                && ValueOrder.identicalRows(oldArguments, newArguments) && samePhysicalKey(before, after)) {
            return;
        }
        // A row moving between two groups locks both in key order, so that two single-row writes
        // moving rows between the same groups in opposite directions queue instead of deadlocking.
        if (oldKey != null && newKey != null && groupOrder.compare(newKey, oldKey) < 0) {
            GroupChanges.Touched newGroup = touch(transaction, backingStorage, changes, sourceInStep, newKey);
            apply(touch(transaction, backingStorage, changes, sourceInStep, oldKey), oldKey, oldArguments, false);
            apply(newGroup, newKey, newArguments, true);
            return;
        }
        if (oldKey != null) {
            apply(touch(transaction, backingStorage, changes, sourceInStep, oldKey), oldKey, oldArguments, false);
        }
        if (newKey != null) {
            apply(touch(transaction, backingStorage, changes, sourceInStep, newKey), newKey, newArguments, true);
        }
    }

    /** The group's working state; the group is locked, exclusive, in the backing's space, where its row lives. */
    private GroupChanges.Touched touch(Transaction transaction, HostedTable backingStorage, GroupChanges changes,
                                       boolean sourceInStep, Object[] key) {
        List<Object> group = EqualityKey.of(key, collations);
        return changes.touch(group, key, store, sourceInStep,
                () -> transaction.lockRow(backingStorage, group, LockMode.EXCLUSIVE));
    }

    private void apply(GroupChanges.Touched group, Object[] rowKey, Object[] arguments, boolean add) {
        GroupState state = group.state();
        if (state == null) {
            return;
        }
        // A row spelling the key differently (nocase, 1 beside 1.0) may change the published key.
        boolean exact = ValueOrder.identicalRows(state.key(), rowKey)
                && (add ? state.add(algebra, arguments, false) : state.remove(algebra, arguments));
        if (!exact) {
            group.derive();
        }
    }

    /**
     * Settles the statement's touched groups — looks up retracted extremes, derives the groups
     * without a usable state — stores their states (undone with the statement) and returns
     * their backing ops: an upsert of the group's row, or a delete of its key when the group is
     * empty or its {@code having} is not true.
     */
    Outcome finish(ExecutionContext context, GroupChanges changes) {
        Transaction transaction = context.transaction();
        Map<List<Object>, GroupState> next = new LinkedHashMap<>();
        List<MaintenanceOp> ops = new ArrayList<>();
        List<Object[]> recompute = new ArrayList<>();
        for (GroupChanges.Touched group : changes.touched()) {
            GroupState state = group.state();
            boolean known = state != null && lookUpExtremes(transaction, state);
            if (!known) {
                state = derive(context.queries(parameters(group.key())), group.key());
                known = state != null && lookUpExtremes(transaction, state);
            }
            // A state whose tie of extremes no index settles is kept (with the extreme unknown) but not published.
            next.put(group.group(), state);
            if (!known || !state.publishable()) {
                recompute.add(group.key());
            } else {
                publish(state, group.prior()).ifPresent(ops::add);
            }
        }
        store.replace(transaction, next);
        return new Outcome(ops, recompute);
    }

    /**
     * Derives the states of every group in one pass over the source, as far as the store keeps
     * groups, so that writes after the MV is filled are deltas from the first (rather than the
     * first write to each group reading the group). Groups whose state cannot be kept exactly
     * are left out, to be derived when written. Undone with the statement, like any change.
     */
    void prime(ExecutionContext context) {
        Map<List<Object>, GroupState> states = new LinkedHashMap<>();
        java.util.Set<List<Object>> unkeepable = new java.util.HashSet<>();
        try (RowCursor cursor = context.queries(Parameters.none()).open(rows.all())) {
            while (cursor.hasNext()) {
                Object[] row = cursor.next();
                Object[] key = groupOf(row);
                List<Object> group = EqualityKey.of(key, collations);
                GroupState state = states.get(group);
                if (state == null) {
                    if (unkeepable.contains(group) || states.size() >= GroupStateStore.CAPACITY) {
                        continue;
                    }
                    state = GroupState.empty(key, algebra);
                    states.put(group, state);
                }
                if (!ValueOrder.identicalRows(state.key(), key)
                        || !state.add(algebra, algebra.arguments(row), rows.allInKeyOrder())) {
                    states.remove(group);
                    unkeepable.add(group);
                }
            }
        }
        store.replace(context.transaction(), states);
    }

    /** Forgets the touched groups (their MV is being rebuilt from its body instead). */
    void forget(Transaction transaction, GroupChanges changes) {
        Map<List<Object>, GroupState> next = new LinkedHashMap<>();
        changes.touched().forEach(group -> next.put(group.group(), null));
        store.replace(transaction, next);
    }

    private boolean lookUpExtremes(Transaction transaction, GroupState state) {
        for (int i = 0; i < algebra.size(); i++) {
            if (state.extremeUnknown(i)) {
                Object extreme = seek.find(transaction, i, state.key());
                if (extreme == ExtremeSeek.NOT_SERVED) {
                    return false;
                }
                state.extremeFound(i, extreme);
            }
        }
        return true;
    }

    /**
     * The group's state from its rows; null when it cannot be kept exactly (its rows spell the
     * key differently, or an integer sum overflows 64 bits). Rows not in physical-key order leave
     * a tie of unequal extremes unknown, for {@link #lookUpExtremes}.
     */
    private GroupState derive(QueryExecutor executor, Object[] key) {
        GroupState state = null;
        try (RowCursor cursor = executor.open(rows.group())) {
            while (cursor.hasNext()) {
                Object[] row = cursor.next();
                Object[] rowKey = groupOf(row);
                if (state == null) {
                    state = GroupState.empty(rowKey, algebra);
                } else if (!ValueOrder.identicalRows(state.key(), rowKey)) {
                    return null;
                }
                if (!state.add(algebra, algebra.arguments(row), rows.groupInKeyOrder())) {
                    return null;
                }
            }
        }
        return state == null ? GroupState.empty(key, algebra) : state;
    }

    /**
     * The op that publishes {@code state}: with the group's row as the store's prior state
     * published it, when that state settles it — the backing then holds that row (or none), so
     * the host need not read it — else an upsert of the row, or a delete of the key when the
     * group is empty or its {@code having} is not true.
     */
    private Optional<MaintenanceOp> publish(GroupState state, GroupState prior) {
        Object[] row = publishedRow(state);
        if (prior != null && settled(prior)) {
            Object[] before = publishedRow(prior);
            return before == null && row == null ? Optional.empty()
                    : Optional.of(new MaintenanceOp.Change(before, row));
        }
        if (row != null) {
            return Optional.of(new MaintenanceOp.Upsert(row));
        }
        Object[] keyed = new Object[backing.columns().size()];
        for (int g = 0; g < outputPositions.length; g++) {
            keyed[outputPositions[g]] = stored(outputPositions[g], state.key()[g]);
        }
        return Optional.of(new MaintenanceOp.DeleteKey(backing.keyOf(keyed)));
    }

    /** Whether {@link #publishedRow} can be taken from the state as it is: no extreme to look up, no inexact sum. */
    private boolean settled(GroupState state) {
        for (int i = 0; i < algebra.size(); i++) {
            if (state.extremeUnknown(i)) {
                return false;
            }
        }
        return state.publishable();
    }

    /** The group's row in the backing, or null when the group is empty or its {@code having} is not true. */
    private Object[] publishedRow(GroupState state) {
        Object[] aggregateRow = state.aggregateRow(algebra);
        if (state.rows() == 0 || (having != null && !having.test(aggregateRow, Parameters.none()))) {
            return null;
        }
        Object[] row = new Object[projection.length];
        for (int i = 0; i < row.length; i++) {
            row[i] = stored(i, projection[i].eval(aggregateRow, Parameters.none()));
        }
        return row;
    }

    private Object stored(int column, Object value) {
        TableShape.Column c = backing.columns().get(column);
        return c.type().coerce(value, backing.name() + "." + c.name());
    }

    private boolean samePhysicalKey(Object[] before, Object[] after) {
        for (int column : sourceKey) {
            if (!ValueOrder.identical(before[column], after[column])) {
                return false;
            }
        }
        return true;
    }

    private boolean inScope(Object[] row) {
        return scope == null || scope.test(row, Parameters.none());
    }

    private Object[] groupOf(Object[] row) {
        Object[] key = new Object[sourceColumns.length];
        for (int i = 0; i < key.length; i++) {
            key[i] = row[sourceColumns[i]];
        }
        return key;
    }

    private Parameters parameters(Object[] key) {
        return SliceRecompute.parameters(parameterPrefix, key);
    }
}
