package io.derive.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An embedded Derby database in memory, the floor a Derive benchmark is measured against: one per
 * trial, under a name of its own, dropped when closed so that trials do not share storage.
 */
final class DerbyMemoryDatabase implements AutoCloseable {
    /** The SQLState with which Derby reports that a database was dropped as asked. */
    private static final String DROPPED = "08006";
    private static final AtomicInteger DATABASES = new AtomicInteger();

    static {
        DerbySettings.apply();
    }

    private final String url;
    private final Connection connection;

    private DerbyMemoryDatabase(String url, Connection connection) {
        this.url = url;
        this.connection = connection;
    }

    /** Creates a fresh database; its connection is in autocommit mode. */
    static DerbyMemoryDatabase create(String name) throws SQLException {
        String url = "jdbc:derby:memory:" + name + "-" + ProcessHandle.current().pid() + "-" + DATABASES.incrementAndGet();
        return new DerbyMemoryDatabase(url, DriverManager.getConnection(url + ";create=true"));
    }

    Connection connection() {
        return connection;
    }

    void execute(String sql) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    /**
     * Runs a query and reads every value of every row, as a Derive {@code Result} holds them: a
     * Derby figure without the reading would measure less work than the Derive one.
     *
     * @param columns how many columns the query returns (known to the caller, which saves asking
     *                the result set's metadata at every run)
     */
    static List<List<Object>> rows(PreparedStatement query, int columns) throws SQLException {
        try (ResultSet resultSet = query.executeQuery()) {
            List<List<Object>> rows = new ArrayList<>();
            while (resultSet.next()) {
                Object[] row = new Object[columns];
                for (int i = 0; i < columns; i++) {
                    row[i] = resultSet.getObject(i + 1);
                }
                rows.add(Arrays.asList(row));
            }
            return rows;
        }
    }

    @Override
    public void close() throws SQLException {
        connection.close();
        try {
            DriverManager.getConnection(url + ";drop=true").close();
        } catch (SQLException e) {
            if (!DROPPED.equals(e.getSQLState())) {
                throw e;
            }
        }
    }
}
