package io.derive.engine.mv;

import io.derive.engine.types.Collation;
import io.derive.engine.types.ValueOrder;

import java.util.Arrays;

/**
 * What the group arm's fast path knows of one group beyond its published row: enough to apply a
 * source row's contribution as a delta and still give exactly what SQLite's aggregates give over
 * the group's rows (the body evaluated afresh).
 *
 * <ul>
 *   <li>the number of rows (an empty group has no row in the MV; {@code count(*)});</li>
 *   <li>per aggregate, the number of non-NULL arguments ({@code count(x)}; a {@code sum} or
 *       {@code avg} of none is NULL, a {@code total} of none is 0.0);</li>
 *   <li>per {@code sum}/{@code total}/{@code avg}, the sums of the positive and of the negative
 *       integer arguments, kept apart: while each fits in 64 bits, no order of adding the group's
 *       values overflows, so the result equals SQLite's running integer sum whatever the scan
 *       order, and an overflow error of a fresh evaluation cannot be missed; and the number of
 *       non-integer arguments (reals, text, blobs), whose sum depends on the order of adding and
 *       is therefore never kept — while there are any, the group is published by recompute;</li>
 *   <li>per {@code min}/{@code max}, the extreme and whether it is known. Taking out a value
 *       equal to the extreme, or adding one that compares equal to it without being identical
 *       (SQLite keeps the first such value in scan order), makes it unknown; it then stays a bound
 *       — no remaining value is better — so adding a strictly better value makes it known again.
 *       An unknown extreme is looked up at statement end ({@link ExtremeSeek}).</li>
 * </ul>
 *
 * <p>The representative key is the group's key values; every row of a kept group has exactly
 * these values (a group whose rows spell the key differently, e.g. under {@code nocase}, is not
 * kept, because its published key is that of its first row in scan order).
 *
 * <p>A state handed to {@link GroupStateStore} is never changed again: changes are made on a
 * {@link #copy()}, so the store can put an old state back when a statement or transaction rolls back.
 */
final class GroupState {
    private final Object[] key;
    private long rows;
    private final long[] nonNull;
    private final long[] positive;
    private final long[] negative;
    private final long[] inexact;
    private final Object[] extreme;
    private final boolean[] unknown;

    private GroupState(Object[] key, int aggregates) {
        this.key = key;
        this.nonNull = new long[aggregates];
        this.positive = new long[aggregates];
        this.negative = new long[aggregates];
        this.inexact = new long[aggregates];
        this.extreme = new Object[aggregates];
        this.unknown = new boolean[aggregates];
    }

    private GroupState(GroupState other) {
        this.key = other.key;
        this.rows = other.rows;
        this.nonNull = other.nonNull.clone();
        this.positive = other.positive.clone();
        this.negative = other.negative.clone();
        this.inexact = other.inexact.clone();
        this.extreme = other.extreme.clone();
        this.unknown = other.unknown.clone();
    }

    /** The state of a group with no rows yet. */
    static GroupState empty(Object[] key, GroupAlgebra algebra) {
        return new GroupState(key.clone(), algebra.size());
    }

    GroupState copy() {
        return new GroupState(this);
    }

    Object[] key() {
        return key;
    }

    long rows() {
        return rows;
    }

    /**
     * Adds a source row's contribution (its aggregate arguments).
     *
     * @param inScanOrder true while deriving the state from the group's rows in scan order, where
     *                    the first of equal extremes is SQLite's; false for a row a write adds,
     *                    whose place in scan order is not known
     * @return false when an integer sum no longer fits in 64 bits: the state is then unusable
     */
    boolean add(GroupAlgebra algebra, Object[] arguments, boolean inScanOrder) {
        rows++;
        for (int i = 0; i < nonNull.length; i++) {
            GroupAlgebra.Kind kind = algebra.kind(i);
            Object v = arguments[i];
            if (kind == GroupAlgebra.Kind.COUNT_ROWS || v == null) {
                continue;
            }
            nonNull[i]++;
            if (kind == GroupAlgebra.Kind.MIN || kind == GroupAlgebra.Kind.MAX) {
                addExtreme(i, v, kind == GroupAlgebra.Kind.MIN ? -1 : 1, algebra.collation(i), inScanOrder);
            } else if (isSummed(kind) && !sum(i, v, 1)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Takes out a source row's contribution.
     *
     * @return false when the state turns out not to hold that row (it is then unusable)
     */
    boolean remove(GroupAlgebra algebra, Object[] arguments) {
        if (--rows < 0) {
            return false;
        }
        for (int i = 0; i < nonNull.length; i++) {
            GroupAlgebra.Kind kind = algebra.kind(i);
            Object v = arguments[i];
            if (kind == GroupAlgebra.Kind.COUNT_ROWS || v == null) {
                continue;
            }
            if (--nonNull[i] < 0) {
                return false;
            }
            if (kind == GroupAlgebra.Kind.MIN || kind == GroupAlgebra.Kind.MAX) {
                removeExtreme(i, v, kind == GroupAlgebra.Kind.MIN ? -1 : 1, algebra.collation(i));
            } else if (isSummed(kind) && !sum(i, v, -1)) {
                return false;
            }
        }
        return true;
    }

    private static boolean isSummed(GroupAlgebra.Kind kind) {
        return kind == GroupAlgebra.Kind.SUM || kind == GroupAlgebra.Kind.TOTAL || kind == GroupAlgebra.Kind.AVG;
    }

    /** Adds ({@code direction} 1) or takes out (-1) a non-NULL summed value; false on overflow. */
    private boolean sum(int i, Object v, int direction) {
        Long integer = integral(v);
        if (integer == null) {
            inexact[i] += direction;
            return inexact[i] >= 0;
        }
        long n = integer;
        try {
            if (n >= 0) {
                positive[i] = direction > 0 ? Math.addExact(positive[i], n) : Math.subtractExact(positive[i], n);
                return positive[i] >= 0;
            }
            negative[i] = direction > 0 ? Math.addExact(negative[i], n) : Math.subtractExact(negative[i], n);
            return negative[i] <= 0;
        } catch (ArithmeticException overflow) {
            return false;
        }
    }

    /** The value SQLite's sum adds as an integer, or null for one that makes the sum real. */
    private static Long integral(Object v) {
        if (v instanceof Long l) {
            return l;
        }
        if (v instanceof Boolean b) {
            return b ? 1L : 0L;
        }
        if (v instanceof Integer || v instanceof Short || v instanceof Byte) {
            return ((Number) v).longValue();
        }
        return null;
    }

    /** {@code sign} -1 for min, 1 for max; the value counts in {@link #nonNull} already. */
    private void addExtreme(int i, Object v, int sign, Collation collation, boolean inScanOrder) {
        if (nonNull[i] == 1) {
            extreme[i] = v;
            unknown[i] = false;
            return;
        }
        int better = ValueOrder.compare(v, extreme[i], collation) * sign;
        if (better > 0) {
            extreme[i] = v;
            unknown[i] = false;
        } else if (better == 0 && !inScanOrder && !ValueOrder.identical(v, extreme[i])) {
            unknown[i] = true;
        }
    }

    private void removeExtreme(int i, Object v, int sign, Collation collation) {
        if (nonNull[i] == 0) {
            extreme[i] = null;
            unknown[i] = false;
            return;
        }
        if (!unknown[i] && ValueOrder.compare(v, extreme[i], collation) * sign >= 0) {
            unknown[i] = true;
        }
    }

    /** Whether the published values can be taken from this state: no summed argument is a non-integer. */
    boolean publishable() {
        for (int i = 0; i < inexact.length; i++) {
            if (inexact[i] > 0) {
                return false;
            }
        }
        return true;
    }

    /** Whether aggregate {@code i} (a min or max) must be looked up before the state is published. */
    boolean extremeUnknown(int i) {
        return unknown[i];
    }

    /** Records a looked-up extreme of aggregate {@code i} (null when no row of the group has a non-NULL argument). */
    void extremeFound(int i, Object value) {
        extreme[i] = value;
        unknown[i] = false;
    }

    /** The aggregate node's row for this group: its key values, then each aggregate's result, as SQLite gives it. */
    Object[] aggregateRow(GroupAlgebra algebra) {
        Object[] row = Arrays.copyOf(key, key.length + nonNull.length);
        for (int i = 0; i < nonNull.length; i++) {
            row[key.length + i] = result(algebra.kind(i), i);
        }
        return row;
    }

    private Object result(GroupAlgebra.Kind kind, int i) {
        long sum = positive[i] + negative[i];
        switch (kind) {
            case COUNT_ROWS:
                return rows;
            case COUNT:
                return nonNull[i];
            case SUM:
                return nonNull[i] == 0 ? null : (Object) sum;
            case TOTAL:
                return (double) sum;
            case AVG:
                return nonNull[i] == 0 ? null : (Object) ((double) sum / nonNull[i]);
            default:
                return extreme[i];
        }
    }
}
