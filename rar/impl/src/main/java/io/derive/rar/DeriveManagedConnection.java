package io.derive.rar;

import io.derive.engine.api.Database;
import io.derive.engine.api.DeriveException;
import io.derive.engine.api.Result;
import io.derive.engine.api.Session;

import java.io.PrintWriter;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;

import javax.security.auth.Subject;
import javax.transaction.xa.XAResource;

import jakarta.resource.ResourceException;
import jakarta.resource.spi.ConnectionEvent;
import jakarta.resource.spi.ConnectionEventListener;
import jakarta.resource.spi.ConnectionRequestInfo;
import jakarta.resource.spi.LocalTransaction;
import jakarta.resource.spi.ManagedConnection;
import jakarta.resource.spi.ManagedConnectionMetaData;

/**
 * One physical connection: one engine {@link Session}, shared by any number of handles.
 *
 * <p>The session is not thread-safe, while handles, the transaction manager and the pool may call
 * from different threads: every use of it goes through this object's monitor, except while it
 * carries a {@link GlobalTransaction}, whose monitor then guards it (its branches may be on other
 * connections).
 */
public class DeriveManagedConnection implements ManagedConnection {

    private static final Logger LOG = System.getLogger(DeriveManagedConnection.class.getName());

    private final DeriveManagedConnectionFactory factory;
    private final Database database;
    private final Session session;
    private final DeriveXAResource xaResource;
    private final DeriveLocalTransaction localTransaction;
    private final List<DeriveConnectionHandle> handles = new CopyOnWriteArrayList<>();
    private final List<ConnectionEventListener> listeners = new CopyOnWriteArrayList<>();
    private volatile boolean destroyed;
    private volatile boolean broken;
    private PrintWriter logWriter;

    DeriveManagedConnection(DeriveManagedConnectionFactory factory, Database database, GlobalTransactions transactions) {
        this.factory = factory;
        this.database = database;
        this.session = database.openSession();
        this.xaResource = new DeriveXAResource(this, transactions);
        this.localTransaction = new DeriveLocalTransaction(this);
    }

    DeriveManagedConnectionFactory factory() {
        return factory;
    }

    Database database() {
        return database;
    }

    Session session() {
        return session;
    }

    DeriveXAResource xaResource() {
        return xaResource;
    }

    boolean isUsable() {
        return !destroyed && !broken;
    }

    @Override
    public Object getConnection(Subject subject, ConnectionRequestInfo info) throws ResourceException {
        checkNotDestroyed();
        DeriveConnectionHandle handle = new DeriveConnectionHandle(this);
        handles.add(handle);
        return handle;
    }

    @Override
    public void associateConnection(Object connection) throws ResourceException {
        checkNotDestroyed();
        if (!(connection instanceof DeriveConnectionHandle handle)) {
            throw new ResourceException("not a Derive connection handle: " + connection);
        }
        DeriveManagedConnection previous = handle.associate(this);
        if (previous != null && previous != this) {
            previous.handles.remove(handle);
        }
        if (!handles.contains(handle)) {
            handles.add(handle);
        }
    }

    /**
     * Connectors spec (ManagedConnection.cleanup): the container calls it before pooling the
     * connection again; every handle becomes invalid, and client state must go. A local
     * transaction the application left open is rolled back here so that it cannot hold the
     * locks of what it wrote for the next user. An XA branch is left to the transaction manager.
     */
    @Override
    public void cleanup() throws ResourceException {
        for (DeriveConnectionHandle handle : handles) {
            handle.invalidate();
        }
        handles.clear();
        xaResource.cleanup();
        synchronized (this) {
            if (!destroyed && !xaResource.hasBranch() && session.inTransaction()) {
                LOG.log(Level.DEBUG, "rolling back a local transaction left open on {0}", this);
                try {
                    session.rollback();
                } catch (RuntimeException e) {
                    broken = true;
                    throw new ResourceException("rollback during cleanup failed: " + e.getMessage(), e);
                }
            }
        }
    }

    @Override
    public void destroy() throws ResourceException {
        if (destroyed) {
            return;
        }
        try {
            cleanup();
        } finally {
            synchronized (this) {
                destroyed = true;
                xaResource.connectionDestroyed();
                session.close();
            }
        }
    }

    /**
     * Connectors spec (ManagedConnection.getXAResource): the transaction manager may ask several
     * times and relies on receiving the same XAResource for this connection each time, so one is
     * created with the connection and always returned.
     */
    @Override
    public XAResource getXAResource() {
        return xaResource;
    }

    @Override
    public LocalTransaction getLocalTransaction() {
        return localTransaction;
    }

    @Override
    public ManagedConnectionMetaData getMetaData() {
        return new DeriveManagedConnectionMetaData();
    }

    @Override
    public void addConnectionEventListener(ConnectionEventListener listener) {
        listeners.add(listener);
    }

    @Override
    public void removeConnectionEventListener(ConnectionEventListener listener) {
        listeners.remove(listener);
    }

    @Override
    public void setLogWriter(PrintWriter out) {
        logWriter = out;
    }

    @Override
    public PrintWriter getLogWriter() {
        return logWriter;
    }

    /**
     * Runs a statement for a handle; the handle has checked that it is open. Inside a JTA
     * transaction the statement runs on that transaction's shared engine transaction (which may
     * live on another connection's session), without this connection's monitor, so that the
     * transaction manager's calls on this connection never wait for a running statement.
     */
    Result execute(DeriveConnectionHandle handle, String sql, Object[] params) {
        GlobalTransaction global;
        int localEvent = 0;
        Result result = null;
        synchronized (this) {
            if (!isUsable()) {
                throw new DeriveException(DeriveException.TRANSACTION_STATE, "the Derive connection is no longer usable");
            }
            global = xaResource.transactionOfStatements();
            if (global == null) {
                TransactionControl control = TransactionControl.of(sql);
                boolean before = session.inTransaction();
                try {
                    result = session.execute(sql, params);
                } catch (DeriveException e) {
                    if (before && !session.inTransaction()) {
                        fireLocalEvent(ConnectionEvent.LOCAL_TRANSACTION_ROLLEDBACK, handle);
                    }
                    if (DeriveException.INTERNAL.equals(e.code())) {
                        sessionFailed(handle, e);
                    }
                    throw e;
                } catch (RuntimeException e) {
                    sessionFailed(handle, e);
                    throw internal(e);
                }
                boolean after = session.inTransaction();
                if (!before && after) {
                    localEvent = ConnectionEvent.LOCAL_TRANSACTION_STARTED;
                } else if (before && !after) {
                    localEvent = control == TransactionControl.ROLLBACK
                            ? ConnectionEvent.LOCAL_TRANSACTION_ROLLEDBACK
                            : ConnectionEvent.LOCAL_TRANSACTION_COMMITTED;
                }
            }
        }
        if (global != null) {
            return executeInGlobalTransaction(global, handle, sql, params);
        }
        fireLocalEvent(localEvent, handle);
        return result;
    }

    private Result executeInGlobalTransaction(GlobalTransaction global, DeriveConnectionHandle handle, String sql, Object[] params) {
        TransactionControl control = TransactionControl.of(sql);
        if (control != TransactionControl.NONE) {
            throw new DeriveException(DeriveException.TRANSACTION_STATE,
                    "'" + control.name().toLowerCase(Locale.ROOT) + "' is not allowed inside a JTA transaction");
        }
        DeriveManagedConnection owner = global.owner();
        try {
            return global.execute(sql, params);
        } catch (DeriveException e) {
            if (DeriveException.INTERNAL.equals(e.code())) {
                owner.sessionFailed(owner == this ? handle : null, e);
            }
            throw e;
        } catch (RuntimeException e) {
            owner.sessionFailed(owner == this ? handle : null, e);
            throw internal(e);
        }
    }

    /** The session failed: the connection is no longer usable, and the container is told so (Connectors spec: connection error). */
    private void sessionFailed(DeriveConnectionHandle handle, Exception e) {
        broken = true;
        fire(ConnectionEvent.CONNECTION_ERROR_OCCURRED, handle, e);
    }

    /** What the application gets instead of a Java exception from the session (it never sees one). */
    private static DeriveException internal(RuntimeException e) {
        return new DeriveException(DeriveException.INTERNAL, "the Derive session failed: " + e, e);
    }

    /**
     * Connectors spec (local transaction management): the connection tells the container when the
     * application itself starts or ends a local transaction through the connection, here with the
     * SQL {@code begin}/{@code commit}/{@code rollback}. Transactions the container drives through
     * {@link #getLocalTransaction()} are not reported back to it.
     */
    private void fireLocalEvent(int type, DeriveConnectionHandle handle) {
        if (type != 0) {
            fire(type, handle, null);
        }
    }

    void handleClosed(DeriveConnectionHandle handle) {
        handles.remove(handle);
        fire(ConnectionEvent.CONNECTION_CLOSED, handle, null);
    }

    void connectionFailed(Exception e) {
        sessionFailed(null, e);
    }

    private void fire(int type, DeriveConnectionHandle handle, Exception error) {
        ConnectionEvent event = error == null ? new ConnectionEvent(this, type) : new ConnectionEvent(this, type, error);
        if (handle != null) {
            event.setConnectionHandle(handle);
        }
        for (ConnectionEventListener listener : listeners) {
            switch (type) {
                case ConnectionEvent.CONNECTION_CLOSED -> listener.connectionClosed(event);
                case ConnectionEvent.CONNECTION_ERROR_OCCURRED -> listener.connectionErrorOccurred(event);
                case ConnectionEvent.LOCAL_TRANSACTION_STARTED -> listener.localTransactionStarted(event);
                case ConnectionEvent.LOCAL_TRANSACTION_COMMITTED -> listener.localTransactionCommitted(event);
                case ConnectionEvent.LOCAL_TRANSACTION_ROLLEDBACK -> listener.localTransactionRolledback(event);
                default -> throw new IllegalArgumentException("unknown connection event " + type);
            }
        }
    }

    private void checkNotDestroyed() throws ResourceException {
        if (destroyed) {
            throw new jakarta.resource.spi.IllegalStateException("the managed connection is destroyed");
        }
    }

    @Override
    public String toString() {
        return "DeriveManagedConnection@" + Integer.toHexString(System.identityHashCode(this)) + "[" + database.name() + "]";
    }

    /** The transaction-control statements, recognised by their first words. */
    enum TransactionControl {
        NONE, BEGIN, COMMIT, ROLLBACK;

        static TransactionControl of(String sql) {
            String first = word(sql, 0);
            return switch (first) {
                case "begin", "start" -> BEGIN;
                case "commit", "end" -> COMMIT;
                // "rollback to savepoint" stays inside the transaction.
                case "rollback" -> "to".equals(word(sql, 1)) ? NONE : ROLLBACK;
                default -> NONE;
            };
        }

        /** The n-th word of the statement, lower case, skipping whitespace and SQL comments. */
        private static String word(String sql, int n) {
            int i = 0;
            int len = sql.length();
            for (int w = 0; ; w++) {
                while (i < len) {
                    char c = sql.charAt(i);
                    if (Character.isWhitespace(c)) {
                        i++;
                    } else if (sql.startsWith("--", i)) {
                        int eol = sql.indexOf('\n', i);
                        i = eol < 0 ? len : eol + 1;
                    } else if (sql.startsWith("/*", i)) {
                        int end = sql.indexOf("*/", i + 2);
                        i = end < 0 ? len : end + 2;
                    } else {
                        break;
                    }
                }
                int start = i;
                while (i < len && Character.isLetter(sql.charAt(i))) {
                    i++;
                }
                if (w == n || start == i) {
                    return sql.substring(start, i).toLowerCase(Locale.ROOT);
                }
            }
        }
    }
}
