package io.derive.engine.spi;

import java.util.List;

/**
 * A grouped aggregate over all rows of one table that the engine offers its host to compute
 * ({@link TableConnection#aggregate}): the host may know a cheaper way to reach the rows than
 * handing every one of them to the engine.
 *
 * <p>A result row holds the group's values of {@code groupColumns}, then one value per call, in
 * order. Rows are grouped as the engine groups {@code integer} values: by value, NULL forming one
 * group of its own. With no group columns there is exactly one row, also over no rows.
 *
 * <p>The engine offers only what these rules answer without reading values of other types: group
 * columns are of type {@code integer}, and so is the column of every {@code sum}, {@code min} and
 * {@code max}; {@code count} of a column counts its non-NULL values of any type.
 *
 * @param groupColumns column positions in the table's rows
 * @param calls        the aggregates, each over one column position (none for {@link Function#COUNT_ROWS})
 */
public record GroupedAggregate(List<Integer> groupColumns, List<Call> calls) {

    /** The aggregate functions, as the engine defines them over {@code integer} values. */
    public enum Function {
        /** {@code count(*)}: the group's rows. */
        COUNT_ROWS,
        /** {@code count(c)}: the group's non-NULL values. */
        COUNT,
        /**
         * {@code sum(c)}: NULL when the group has no non-NULL value, else their sum; when some order
         * of adding them up passes the 64-bit range the engine raises {@code integer overflow}, so
         * the host must then answer with no result rather than a sum.
         */
        SUM,
        /** {@code min(c)}: the least non-NULL value, NULL when there is none. */
        MIN,
        /** {@code max(c)}: the greatest non-NULL value, NULL when there is none. */
        MAX
    }

    /** One aggregate; {@code column} is -1 for {@link Function#COUNT_ROWS}. */
    public record Call(Function function, int column) {
    }

    public GroupedAggregate {
        groupColumns = List.copyOf(groupColumns);
        calls = List.copyOf(calls);
    }
}
