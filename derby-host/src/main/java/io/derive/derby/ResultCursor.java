package io.derive.derby;

import io.derive.engine.spi.LookaheadCursor;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayDeque;

/**
 * Rows of one Derby query, read lazily; {@link #drain()} reads the rest into memory so that the
 * transaction can write the table without the cursor seeing it.
 */
final class ResultCursor extends LookaheadCursor {

    /** Turns the current result row into an engine row, or {@code null} to skip it. */
    interface RowReader {
        Object[] read(ResultSet rs) throws SQLException;
    }

    private final DerbyTable table;
    private final DerbyTransaction transaction;
    private final String sql;
    private final RowReader reader;
    private PreparedStatement statement;
    private ResultSet results;
    private ArrayDeque<Object[]> drained;

    ResultCursor(DerbyTable table, DerbyTransaction transaction, String sql, PreparedStatement statement,
                 ResultSet results, RowReader reader) {
        this.table = table;
        this.transaction = transaction;
        this.sql = sql;
        this.statement = statement;
        this.results = results;
        this.reader = reader;
        transaction.cursorOpened(this);
    }

    DerbyTable table() {
        return table;
    }

    @Override
    protected Object[] advance() {
        if (drained != null) {
            return drained.poll();
        }
        if (results == null) {
            return null;
        }
        try {
            while (results.next()) {
                Object[] row = reader.read(results);
                if (row != null) {
                    return row;
                }
            }
        } catch (SQLException e) {
            close();
            throw transaction.fail("read table " + table.shape().qualifiedName() + " of", e);
        }
        close();
        return null;
    }

    /** Reads every remaining row now and releases the result set. */
    void drain() {
        if (drained != null) {
            return;
        }
        if (results == null) {
            drained = new ArrayDeque<>();
            return;
        }
        ArrayDeque<Object[]> rest = new ArrayDeque<>();
        for (Object[] row = advance(); row != null; row = advance()) {
            rest.add(row);
        }
        drained = rest;
    }

    /** Reads every remaining row now and hands them out last first. */
    void drainReversed() {
        drain();
        ArrayDeque<Object[]> reversed = new ArrayDeque<>(drained.size());
        drained.forEach(reversed::push);
        drained = reversed;
    }

    @Override
    public void close() {
        if (results == null) {
            return;
        }
        try {
            results.close();
        } catch (SQLException e) {
            transaction.fail("close a cursor on " + table.shape().qualifiedName() + " of", e);
        }
        results = null;
        transaction.session().giveBack(sql, statement);
        statement = null;
        transaction.cursorClosed(this);
    }
}
