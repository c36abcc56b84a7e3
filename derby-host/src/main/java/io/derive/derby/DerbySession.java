package io.derive.derby;

import io.derive.engine.api.DeriveException;
import io.derive.engine.spi.HostSession;

import java.lang.System.Logger.Level;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

import javax.sql.XAConnection;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;

/**
 * What the Derby host keeps per engine session: one JDBC connection, shared by every Derby table
 * the session touches, so that a transaction over several of them commits or rolls back in one
 * Derby transaction; its prepared statements; and the current {@link DerbyTransaction}. The
 * connection is an XA connection's, so that a transaction may be a branch of a global one.
 *
 * <p>Used by one thread at a time, as engine sessions are.
 */
final class DerbySession implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(DerbySession.class.getName());
    /** Enough for the statements of a few dozen tables; older ones are closed and re-prepared when needed. */
    private static final int STATEMENT_CACHE = 512;

    private final DerbyTableModule module;
    private XAConnection xa;
    private Connection connection;
    private XAResource xaResource;
    private final Map<String, PreparedStatement> statements = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, PreparedStatement> eldest) {
            if (size() > STATEMENT_CACHE) {
                closeQuietly(eldest.getValue());
                return true;
            }
            return false;
        }
    };
    private final Map<String, ArrayDeque<PreparedStatement>> idleCursors = new HashMap<>();
    private final HostSession host;
    private DerbyTransaction current;
    private boolean closed;

    DerbySession(DerbyTableModule module, HostSession host) {
        this.module = module;
        this.host = host;
        connect();
    }

    /** The engine session this one serves. */
    HostSession host() {
        return host;
    }

    private void connect() {
        xa = module.store().xaConnection();
        try {
            connection = module.store().sessionConnection(xa);
            xaResource = xa.getXAResource();
        } catch (SQLException | RuntimeException e) {
            DerbyStore.closeQuietly(xa);
            throw e instanceof SQLException sql ? failure("open a session on", sql) : (RuntimeException) e;
        }
    }

    /**
     * Replaces the connection by a new one, between transactions. Derby keeps each connection's
     * lock table at the largest size it ever reached and clears all of it at every commit, so
     * after a transaction that held many row locks (the host never lets Derby escalate them to a
     * table lock, which readers would wait for) every later commit on the connection would pay
     * for that size.
     */
    void renewConnection() {
        if (!closed) {
            closeConnection();
            connect();
        }
    }

    DerbyTableModule module() {
        return module;
    }

    Connection connection() {
        return connection;
    }

    XAResource xaResource() {
        return xaResource;
    }

    /**
     * The transaction the session's next connection joins: the open one, else a new one — on
     * the Derby branch {@code branch} of a global transaction when it is not null.
     */
    DerbyTransaction transaction(Xid branch) {
        if (current == null || current.ended()) {
            current = branch == null ? new DerbyTransaction(this) : DerbyTransaction.onBranch(this, branch);
        }
        return current;
    }

    /** A prepared statement for a statement whose results are consumed before the next use of the same text. */
    PreparedStatement statement(String sql) throws SQLException {
        PreparedStatement p = statements.get(sql);
        if (p == null) {
            p = connection.prepareStatement(sql);
            statements.put(sql, p);
        }
        return p;
    }

    /** A prepared statement for a cursor that may stay open while others of the same text run; give it back when done. */
    PreparedStatement borrow(String sql) throws SQLException {
        ArrayDeque<PreparedStatement> idle = idleCursors.get(sql);
        PreparedStatement p = idle == null ? null : idle.poll();
        return p != null ? p : connection.prepareStatement(sql);
    }

    void giveBack(String sql, PreparedStatement statement) {
        ArrayDeque<PreparedStatement> idle = idleCursors.computeIfAbsent(sql, s -> new ArrayDeque<>());
        if (idle.size() < 4) {
            idle.push(statement);
        } else {
            closeQuietly(statement);
        }
    }

    DeriveException failure(String action, SQLException e) {
        return module.store().failure(action, e);
    }

    /**
     * Rolls back an open transaction, except a prepared branch, which Derby keeps in doubt for
     * its transaction manager; then closes the statements and the connection.
     */
    @Override
    public void close() {
        if (current != null && !current.ended() && !current.preparedBranch()) {
            current.rollback();
        }
        closed = true;
        closeConnection();
    }

    private void closeConnection() {
        statements.values().forEach(DerbySession::closeQuietly);
        statements.clear();
        idleCursors.values().forEach(q -> q.forEach(DerbySession::closeQuietly));
        idleCursors.clear();
        try {
            connection.close();
        } catch (SQLException e) {
            LOG.log(Level.WARNING, "closing a session connection of " + module.store().location() + " failed", e);
        }
        DerbyStore.closeQuietly(xa);
    }

    private static void closeQuietly(PreparedStatement p) {
        try {
            p.close();
        } catch (SQLException e) {
            LOG.log(Level.DEBUG, "closing a prepared statement failed", e);
        }
    }
}
