package io.derive.it.app;

import io.derive.client.DeriveConnection;
import io.derive.client.DeriveConnectionFactory;
import io.derive.engine.api.DeriveException;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import javax.sql.DataSource;

import jakarta.annotation.Resource;
import jakarta.ejb.SessionContext;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;

/**
 * The in-server half of the integration tests: container-managed transactions around Derive
 * (and, for two-phase commit, a Derby XA data source). Each scenario works on its own table.
 */
@Stateless
public class ScenarioBean {

    @Resource(lookup = "eis/derive")
    DeriveConnectionFactory derive;

    /** The same connection factory through an unshareable reference: Liberty enlists it as a branch of its own. */
    @Resource(lookup = "eis/derive", shareable = false)
    DeriveConnectionFactory unshared;

    @Resource(lookup = "jdbc/second")
    DataSource second;

    @Resource
    SessionContext context;

    /**
     * Creates table {@code t} and view {@code t_mv} (rows with n > 0) on {@code host} (the
     * database's default host when null), and the Derby table.
     */
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public void setup(String t, String host) throws SQLException {
        String using = host == null ? "" : " using " + host;
        try (DeriveConnection c = derive.getConnection()) {
            // The server's Derive database is durable: a previous run's objects may still be there.
            c.execute("drop materialized view if exists " + t + "_mv");
            c.execute("drop table if exists " + t);
            c.execute("create table " + t + " (k integer primary key, v text, n integer not null)" + using);
            c.execute("create materialized view " + t + "_mv" + using + " as select k, v from " + t + " where n > 0");
        }
        try (Connection c = second.getConnection(); Statement s = c.createStatement()) {
            s.executeUpdate("create table " + t + " (k int primary key)");
        }
    }

    @TransactionAttribute(TransactionAttributeType.REQUIRED)
    public void insert(String t, long k) {
        try (DeriveConnection c = derive.getConnection()) {
            c.execute("insert into " + t + " values (?, ?, ?)", k, "v" + k, 1L);
        }
    }

    @TransactionAttribute(TransactionAttributeType.REQUIRED)
    public void insertThenThrow(String t, long k) {
        insert(t, k);
        throw new IllegalStateException("the business method failed after writing");
    }

    @TransactionAttribute(TransactionAttributeType.REQUIRED)
    public void insertThenSetRollbackOnly(String t, long k) {
        insert(t, k);
        context.setRollbackOnly();
    }

    /** Sets the refresh schedule of materialized view {@code view}, then marks the transaction rollback-only. */
    @TransactionAttribute(TransactionAttributeType.REQUIRED)
    public void scheduleThenSetRollbackOnly(String view, String schedule) {
        try (DeriveConnection c = derive.getConnection()) {
            c.execute("alter materialized view " + view + " set refresh schedule '" + schedule + "'");
        }
        context.setRollbackOnly();
    }

    /**
     * Inserts {@code values} into {@code t} and holds the transaction, with its locks, for
     * {@code millis} before it rolls back.
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRED)
    public void holdThenRollBack(String t, String values, long millis) throws InterruptedException {
        try (DeriveConnection c = derive.getConnection()) {
            c.execute("insert into " + t + " values " + values);
        }
        Thread.sleep(millis);
        context.setRollbackOnly();
    }

    /** Writes one row to Derive and one to Derby in the same JTA transaction. */
    @TransactionAttribute(TransactionAttributeType.REQUIRED)
    public void twoResources(String t, long k, boolean rollback) throws SQLException {
        insert(t, k);
        try (Connection c = second.getConnection();
             PreparedStatement s = c.prepareStatement("insert into " + t + " values (?)")) {
            s.setLong(1, k);
            s.executeUpdate();
        }
        if (rollback) {
            context.setRollbackOnly();
        }
    }

    /**
     * Two connections in one JTA transaction: the second sees the first one's uncommitted row and
     * writes without waiting for the write lock; another transaction meanwhile sees neither row.
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRED)
    public String sharedTransaction(String t) {
        StringBuilder out = new StringBuilder();
        try (DeriveConnection first = derive.getConnection()) {
            first.execute("insert into " + t + " values (1, 'a', 1)");
            try (DeriveConnection second = derive.getConnection()) {
                out.append("secondSaw=").append(second.query("select k from " + t + " where k = 1").size()).append('\n');
                long start = System.nanoTime();
                second.execute("insert into " + t + " values (2, 'b', 1)");
                out.append("secondWriteMillis=").append((System.nanoTime() - start) / 1_000_000).append('\n');
            }
        }
        try (DeriveConnection third = derive.getConnection()) {
            out.append("thirdSaw=").append(keys(third, "select k from " + t + "_mv order by k")).append('\n');
        }
        out.append("otherTransactionSaw=").append(self().keysInNewTransaction("select k from " + t + " order by k")).append('\n');
        return out.toString();
    }

    /**
     * Writes row 1 through the shareable reference and row 2 through the unshareable one, in one
     * JTA transaction: two managed connections, two branches of one global transaction.
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRED)
    public void unshareableConnections(String t, boolean rollback) {
        try (DeriveConnection first = derive.getConnection(); DeriveConnection second = unshared.getConnection()) {
            first.execute("insert into " + t + " values (1, 'a', 1)");
            second.execute("insert into " + t + " values (2, 'b', 1)");
        }
        if (rollback) {
            context.setRollbackOnly();
        }
    }

    /** Outside a JTA transaction each statement commits on its own, even if the method then fails. */
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public String autocommit(String t) {
        StringBuilder out = new StringBuilder();
        try (DeriveConnection c = derive.getConnection()) {
            c.execute("insert into " + t + " values (1, 'a', 1)");
            out.append("otherTransactionSaw=").append(self().keysInNewTransaction("select k from " + t + " order by k")).append('\n');
            try {
                c.execute("insert into " + t + " values (1, 'again', 1)");
                out.append("duplicate=accepted\n");
            } catch (DeriveException e) {
                out.append("duplicate=refused\n");
            }
            c.execute("insert into " + t + " values (2, 'b', 1)");
        }
        return out.toString();
    }

    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public void insertInNewTransaction(String t, long k) {
        insert(t, k);
    }

    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public List<Object> keysInNewTransaction(String sql) {
        try (DeriveConnection c = derive.getConnection()) {
            return keys(c, sql);
        }
    }

    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public List<Object> secondKeys(String t) throws SQLException {
        List<Object> keys = new ArrayList<>();
        try (Connection c = second.getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("select k from " + t + " order by k")) {
            while (rs.next()) {
                keys.add(rs.getLong(1));
            }
        }
        return keys;
    }

    private static List<Object> keys(DeriveConnection c, String sql) {
        return c.query(sql).stream().map(r -> r.get(0)).toList();
    }

    private ScenarioBean self() {
        // Through the container, so that the called method's transaction attribute applies.
        return context.getBusinessObject(ScenarioBean.class);
    }
}
