package io.derive.derby;

import io.derive.engine.spi.GroupedAggregate;
import io.derive.engine.spi.TableShape;
import io.derive.engine.types.SqlType;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A {@link GroupedAggregate} of a Derby table computed by Derby in one {@code select … group by},
 * so that a million rows are grouped where they lie instead of each crossing JDBC and the key
 * codec. Derby's answer is taken only where it is exactly the engine's:
 * <ul>
 * <li>Integer columns are Derby {@code BIGINT}s holding the engine's values ({@link ColumnCodec}),
 * which Derby groups, counts and orders as the engine does, NULL included; a count of a column of
 * any type counts its SQL NULLs as the engine counts its NULLs.
 * <li>A sum is added up in Derby's row order, the engine's in key order, and the engine raises
 * {@code integer overflow} when a partial sum leaves 64 bits. Derby's sum is taken only when no
 * order can overflow: the group's row count times a bound of its absolute values fits in 64 bits.
 * The bound is the column's {@link ColumnMagnitudes} where it is known and small enough for the
 * table's rows, else the group's greatest absolute value, which the query then also asks for (an
 * absolute value Derby cannot hold fails the query, which is declined) and which, read from every
 * row, makes the column's bound known. Otherwise the engine computes the aggregate.
 * <li>The rows read are the snapshot's: the transaction has no pending rows of the table, no key
 * holds a version the snapshot must not see, and no write was announced to the table's
 * {@link BeforeImages} between before that check and after the query (a flush registers a key's
 * version before Derby sees the write, so a write the query could have seen is caught either way).
 * </ul>
 * Anything else, a Derby data exception included, is declined, and the engine reads the rows.
 */
final class DerbyAggregate {
    private final DerbyTable table;
    private final GroupedAggregate aggregate;
    /** Per call: for a sum, the bound of its column's absolute values, or null to ask Derby for the group's greatest. */
    private final Long[] bounds;

    private DerbyAggregate(DerbyTable table, GroupedAggregate aggregate) {
        this.table = table;
        this.aggregate = aggregate;
        this.bounds = new Long[aggregate.calls().size()];
    }

    /** The aggregate as Derby computes it, or empty when Derby's answer would not be the engine's (see the class comment). */
    static Optional<List<Object[]>> compute(DerbyTable table, DerbyTransaction tx, GroupedAggregate aggregate, long snapshot) {
        if (!table.module().aggregatesInDerby() || !computable(table.shape(), aggregate) || !tx.pending(table).isEmpty()) {
            return Optional.empty();
        }
        return new DerbyAggregate(table, aggregate).run(tx, snapshot);
    }

    private static boolean computable(TableShape shape, GroupedAggregate aggregate) {
        for (int column : aggregate.groupColumns()) {
            if (!isInteger(shape, column)) {
                return false;
            }
        }
        for (GroupedAggregate.Call call : aggregate.calls()) {
            boolean ok = switch (call.function()) {
                case COUNT_ROWS -> true;
                case COUNT -> call.column() >= 0 && call.column() < shape.columns().size();
                case SUM, MIN, MAX -> isInteger(shape, call.column());
            };
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    private static boolean isInteger(TableShape shape, int column) {
        return column >= 0 && column < shape.columns().size() && shape.columns().get(column).type() == SqlType.INTEGER;
    }

    private Optional<List<Object[]>> run(DerbyTransaction tx, long snapshot) {
        BeforeImages images = table.images();
        long writes = images.writes();
        if (!images.settledFor(snapshot)) {
            return Optional.empty();
        }
        boundSums();
        long[] greatest = new long[bounds.length];
        List<Object[]> rows = new ArrayList<>();
        try {
            PreparedStatement p = tx.session().statement(sql());
            table.module().executed(1);
            try (ResultSet rs = p.executeQuery()) {
                while (rs.next()) {
                    Object[] row = row(rs, greatest);
                    if (row == null) {
                        return Optional.empty();
                    }
                    rows.add(row);
                }
            }
        } catch (SQLException e) {
            if (e.getSQLState() != null && e.getSQLState().startsWith("22")) {
                return Optional.empty();
            }
            throw tx.fail("aggregate table " + table.shape().qualifiedName() + " of", e);
        }
        if (images.writes() != writes) {
            return Optional.empty();
        }
        for (int i = 0; i < bounds.length; i++) {
            if (aggregate.calls().get(i).function() == GroupedAggregate.Function.SUM && bounds[i] == null) {
                table.magnitudes().learned(aggregate.calls().get(i).column(), greatest[i]);
            }
        }
        table.module().aggregated();
        return Optional.of(rows);
    }

    /** Takes each sum's column bound where it is known and, times the table's rows, fits 64 bits. */
    private void boundSums() {
        long tableRows = Math.max(1, table.committedRowCount());
        for (int i = 0; i < bounds.length; i++) {
            GroupedAggregate.Call call = aggregate.calls().get(i);
            if (call.function() == GroupedAggregate.Function.SUM) {
                OptionalLong bound = table.magnitudes().bound(call.column());
                if (bound.isPresent() && bound.getAsLong() <= Long.MAX_VALUE / tableRows) {
                    bounds[i] = bound.getAsLong();
                }
            }
        }
    }

    /**
     * One group's result row, or {@code null} when one of its sums could overflow in the engine;
     * {@code greatest} gathers, per sum Derby bounded, the greatest absolute value of all groups.
     */
    private Object[] row(ResultSet rs, long[] greatest) throws SQLException {
        List<Integer> groups = aggregate.groupColumns();
        Object[] row = new Object[groups.size() + aggregate.calls().size()];
        long rows = rs.getLong(1);
        int column = 2;
        for (int i = 0; i < groups.size(); i++) {
            row[i] = nullableLong(rs, column++);
        }
        for (int i = 0; i < aggregate.calls().size(); i++) {
            GroupedAggregate.Function function = aggregate.calls().get(i).function();
            if (function == GroupedAggregate.Function.COUNT_ROWS) {
                row[groups.size() + i] = rows;
                continue;
            }
            Long value = nullableLong(rs, column++);
            if (function == GroupedAggregate.Function.SUM) {
                long bound = bounds[i] != null ? bounds[i] : rs.getLong(column++);
                greatest[i] = Math.max(greatest[i], bound);
                if (value != null && bound > Long.MAX_VALUE / Math.max(rows, 1)) {
                    return null;
                }
            }
            row[groups.size() + i] = value;
        }
        return row;
    }

    private static Long nullableLong(ResultSet rs, int column) throws SQLException {
        long value = rs.getLong(column);
        return rs.wasNull() ? null : value;
    }

    /** The query: the group's row count first (it bounds every sum's count of values), the group columns, the calls. */
    private String sql() {
        List<TableShape.Column> columns = table.shape().columns();
        List<String> groups = aggregate.groupColumns().stream().map(c -> DerbySql.identifier(columns.get(c).name())).toList();
        List<String> select = new ArrayList<>(List.of("count(*)"));
        select.addAll(groups);
        for (int i = 0; i < bounds.length; i++) {
            GroupedAggregate.Call call = aggregate.calls().get(i);
            String c = call.column() < 0 ? null : DerbySql.identifier(columns.get(call.column()).name());
            switch (call.function()) {
                case COUNT_ROWS -> {
                    // the first column
                }
                case COUNT -> select.add("count(" + c + ")");
                case SUM -> {
                    select.add("sum(" + c + ")");
                    if (bounds[i] == null) {
                        select.add("max(abs(" + c + "))");
                    }
                }
                case MIN -> select.add("min(" + c + ")");
                case MAX -> select.add("max(" + c + ")");
            }
        }
        return "select " + String.join(", ", select) + " from " + table.qualifiedDerbyName()
                + (groups.isEmpty() ? "" : " group by " + String.join(", ", groups));
    }
}
