package io.derive.derby;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The rows of one Derby query as {@link SnapshotScan.Keyed} rows, read lazily; closed by its
 * scan, or by its transaction when that ends first.
 */
final class ResultCursor implements SnapshotScan.Store {

    /** Turns the current result row into a keyed row. */
    interface RowReader {
        SnapshotScan.Keyed read(ResultSet rs) throws SQLException;
    }

    private final DerbyTable table;
    private final DerbyTransaction transaction;
    private final String sql;
    private final RowReader reader;
    private PreparedStatement statement;
    private ResultSet results;

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

    @Override
    public SnapshotScan.Keyed next() {
        if (results == null) {
            return null;
        }
        try {
            if (results.next()) {
                return reader.read(results);
            }
        } catch (SQLException e) {
            close();
            throw transaction.fail("read table " + table.shape().qualifiedName() + " of", e);
        }
        close();
        return null;
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
