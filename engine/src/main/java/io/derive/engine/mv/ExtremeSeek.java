package io.derive.engine.mv;

import io.derive.engine.exec.expr.Parameters;
import io.derive.engine.schema.IndexSchema;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.spi.KeyRange;
import io.derive.engine.spi.RowCursor;
import io.derive.engine.txn.Transaction;
import io.derive.engine.types.Collation;
import io.derive.engine.types.ValueOrder;

import java.util.Optional;
import java.util.function.BiPredicate;

/**
 * Finds a group's {@code min} or {@code max} again after its extreme was retracted, by a seek on a
 * secondary index of the source whose leading columns are the group columns (in any order, each
 * under its group collation) followed by the aggregated column (under the aggregate's
 * collation): the group's entries are then in order of the aggregated value, so the extreme is
 * the first entry (walking backwards for the other end) whose value is not NULL and whose row
 * the body's {@code where} keeps. The index is looked up in the transaction's catalog at each
 * seek, so indexes created or dropped after the MV are taken into account.
 *
 * <p>Among values that compare equal but differ (under {@code nocase}, or 1 beside 1.0) SQLite
 * keeps the first in scan order, which within a group is physical-key order; entries with equal
 * index keys are in physical-key order too, so the first entry of a run of equal values is the
 * one the body keeps.
 */
final class ExtremeSeek {
    private final String source;
    private final int[] groupColumns;
    private final java.util.List<Collation> groupCollations;
    private final GroupAlgebra algebra;
    private final BiPredicate<Object[], Parameters> scope;

    /**
     * @param groupColumns    the source columns of the group key, in group-by order
     * @param groupCollations their collations
     * @param scope           the body's {@code where} over a source row, or null
     */
    ExtremeSeek(String source, int[] groupColumns, java.util.List<Collation> groupCollations, GroupAlgebra algebra,
                BiPredicate<Object[], Parameters> scope) {
        this.source = source;
        this.groupColumns = groupColumns;
        this.groupCollations = java.util.List.copyOf(groupCollations);
        this.algebra = algebra;
        this.scope = scope;
    }

    /** What {@link #find} answers when no index of the source serves the aggregate. */
    static final Object NOT_SERVED = new Object();

    /**
     * The extreme of aggregate {@code aggregate} (a min or max over a bare column) over the group
     * with these key values, as the transaction sees the source: null when no row of the group
     * has a value, {@link #NOT_SERVED} when no index serves.
     */
    Object find(Transaction transaction, int aggregate, Object[] groupKey) {
        int column = algebra.argumentColumn(aggregate);
        Optional<TableSchema> table = transaction.catalog().tableByKey(source);
        if (column < 0 || table.isEmpty()) {
            return NOT_SERVED;
        }
        for (IndexSchema index : table.get().constraints().indexes()) {
            Object[] prefix = prefix(index, column, algebra.collation(aggregate), groupKey);
            if (prefix != null) {
                boolean valueDescending = index.columns().get(groupColumns.length).descending();
                boolean max = algebra.kind(aggregate) == GroupAlgebra.Kind.MAX;
                return walk(transaction, table.get(), index.name(), prefix, max != valueDescending, column,
                        algebra.collation(aggregate));
            }
        }
        return NOT_SERVED;
    }

    /** The index-key prefix fixing the group when the index serves this aggregate, else null. */
    private Object[] prefix(IndexSchema index, int column, Collation collation, Object[] groupKey) {
        int groups = groupColumns.length;
        if (index.where() != null || index.columns().size() <= groups) {
            return null;
        }
        IndexSchema.IndexColumn value = index.columns().get(groups);
        if (value.column() != column || value.collation() != collation) {
            return null;
        }
        Object[] prefix = new Object[groups];
        boolean[] used = new boolean[groups];
        for (int i = 0; i < groups; i++) {
            IndexSchema.IndexColumn c = index.columns().get(i);
            int g = groupPosition(c, used);
            if (g < 0) {
                return null;
            }
            used[g] = true;
            prefix[i] = groupKey[g];
        }
        return prefix;
    }

    private int groupPosition(IndexSchema.IndexColumn c, boolean[] used) {
        for (int g = 0; g < groupColumns.length; g++) {
            if (!used[g] && groupColumns[g] == c.column() && groupCollations.get(g) == c.collation()) {
                return g;
            }
        }
        return -1;
    }

    /**
     * The first non-NULL value in scope walking the group's entries. Walking backwards, equal
     * values come in descending physical-key order, so when the value found has an equal
     * neighbour the run of equal values is sought again forwards, where its first entry in scope
     * has the smallest physical key — one more seek rather than a walk over the run.
     */
    private Object walk(Transaction transaction, TableSchema table, String index, Object[] prefix, boolean backwards,
                        int column, Collation collation) {
        var connection = transaction.connection(table);
        Object best = null;
        boolean tied = false;
        try (RowCursor rows = connection.scanIndex(index, prefix, backwards)) {
            while (rows.hasNext()) {
                Object[] row = rows.next();
                Object v = row[column];
                if (best != null) {
                    tied = v != null && ValueOrder.compare(v, best, collation) == 0;
                    break;
                }
                if (v != null && inScope(row)) {
                    best = v;
                    if (!backwards) {
                        break;
                    }
                }
            }
        }
        return tied ? firstOfRun(connection, index, prefix, best, column, collation) : best;
    }

    /** The value of the first entry in scope, in physical-key order, among those equal to {@code value}. */
    private Object firstOfRun(io.derive.engine.spi.TableConnection connection, String index, Object[] prefix,
                              Object value, int column, Collation collation) {
        try (RowCursor rows = connection.scanIndex(index, new KeyRange(prefix, value, true, value, true))) {
            while (rows.hasNext()) {
                Object[] row = rows.next();
                Object v = row[column];
                if (v != null && ValueOrder.compare(v, value, collation) == 0 && inScope(row)) {
                    return v;
                }
            }
        }
        return value;
    }

    private boolean inScope(Object[] row) {
        return scope == null || scope.test(row, Parameters.none());
    }
}
