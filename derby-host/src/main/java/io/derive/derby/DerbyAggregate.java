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
 * order can overflow: the group's count times its greatest positive value, and times its least
 * negative one, fit in 64 bits. Otherwise the engine computes the aggregate.
 * <li>The rows read are the snapshot's: the transaction has no pending rows of the table, no key
 * holds a version the snapshot must not see, and no write was announced to the table's
 * {@link BeforeImages} between before that check and after the query (a flush registers a key's
 * version before Derby sees the write, so a write the query could have seen is caught either way).
 * </ul>
 * Anything else, a Derby data exception included, is declined, and the engine reads the rows.
 */
final class DerbyAggregate {
    /** Per sum, the columns that bound it: the sum itself, then the count, least and greatest value. */
    private static final int SUM_WIDTH = 4;

    private final DerbyTable table;
    private final GroupedAggregate aggregate;
    private final String sql;

    private DerbyAggregate(DerbyTable table, GroupedAggregate aggregate) {
        this.table = table;
        this.aggregate = aggregate;
        this.sql = sql(table, aggregate);
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
        List<Object[]> rows = new ArrayList<>();
        try {
            PreparedStatement p = tx.session().statement(sql);
            table.module().executed(1);
            try (ResultSet rs = p.executeQuery()) {
                while (rs.next()) {
                    Object[] row = row(rs);
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
        table.module().aggregated();
        return Optional.of(rows);
    }

    /** One group's result row, or {@code null} when one of its sums could overflow in the engine. */
    private Object[] row(ResultSet rs) throws SQLException {
        List<Integer> groups = aggregate.groupColumns();
        Object[] row = new Object[groups.size() + aggregate.calls().size()];
        int column = 1;
        for (int i = 0; i < groups.size(); i++) {
            row[i] = nullableLong(rs, column++);
        }
        for (int i = 0; i < aggregate.calls().size(); i++) {
            GroupedAggregate.Function function = aggregate.calls().get(i).function();
            if (function == GroupedAggregate.Function.SUM) {
                Long sum = nullableLong(rs, column);
                if (sum != null && !noOrderOverflows(rs.getLong(column + 1), rs.getLong(column + 2), rs.getLong(column + 3))) {
                    return null;
                }
                row[groups.size() + i] = sum;
                column += SUM_WIDTH;
            } else {
                row[groups.size() + i] = nullableLong(rs, column++);
            }
        }
        return row;
    }

    /** Whether every partial sum of {@code count} values between {@code least} and {@code greatest}, in any order, fits 64 bits. */
    private static boolean noOrderOverflows(long count, long least, long greatest) {
        try {
            Math.multiplyExact(count, Math.max(greatest, 0));
            Math.multiplyExact(count, Math.min(least, 0));
            return true;
        } catch (ArithmeticException e) {
            return false;
        }
    }

    private static Long nullableLong(ResultSet rs, int column) throws SQLException {
        long value = rs.getLong(column);
        return rs.wasNull() ? null : value;
    }

    private static String sql(DerbyTable table, GroupedAggregate aggregate) {
        List<TableShape.Column> columns = table.shape().columns();
        List<String> groups = aggregate.groupColumns().stream().map(c -> DerbySql.identifier(columns.get(c).name())).toList();
        List<String> select = new ArrayList<>(groups);
        for (GroupedAggregate.Call call : aggregate.calls()) {
            String c = call.column() < 0 ? null : DerbySql.identifier(columns.get(call.column()).name());
            switch (call.function()) {
                case COUNT_ROWS -> select.add("count(*)");
                case COUNT -> select.add("count(" + c + ")");
                case SUM -> select.addAll(List.of("sum(" + c + ")", "count(" + c + ")", "min(" + c + ")", "max(" + c + ")"));
                case MIN -> select.add("min(" + c + ")");
                case MAX -> select.add("max(" + c + ")");
            }
        }
        return "select " + String.join(", ", select) + " from " + table.qualifiedDerbyName()
                + (groups.isEmpty() ? "" : " group by " + String.join(", ", groups));
    }
}
