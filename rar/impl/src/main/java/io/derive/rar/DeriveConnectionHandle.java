package io.derive.rar;

import io.derive.client.DeriveConnection;
import io.derive.engine.api.DeriveException;
import io.derive.engine.api.Result;
import io.derive.engine.api.Row;

import java.util.List;

/**
 * The application's handle on a {@link DeriveManagedConnection}. Several handles may share one
 * managed connection, and the container may move a handle to another one
 * ({@code associateConnection}). Outside a transaction each statement autocommits because the
 * engine session does so itself.
 */
public final class DeriveConnectionHandle implements DeriveConnection {

    private static final Object[] NO_PARAMS = new Object[0];

    private volatile DeriveManagedConnection connection;
    private volatile boolean closed;

    DeriveConnectionHandle(DeriveManagedConnection connection) {
        this.connection = connection;
    }

    /** Moves the handle to another managed connection; returns the previous one. */
    DeriveManagedConnection associate(DeriveManagedConnection target) {
        DeriveManagedConnection previous = connection;
        connection = target;
        return previous;
    }

    /** Called by the managed connection's cleanup: the handle can no longer be used. */
    void invalidate() {
        connection = null;
        closed = true;
    }

    @Override
    public long execute(String sql, Object... params) {
        return run(sql, params).updateCount();
    }

    @Override
    public List<Row> query(String sql, Object... params) {
        return run(sql, params).rows();
    }

    @Override
    public Result run(String sql, Object... params) {
        if (sql == null) {
            throw new DeriveException(DeriveException.SYNTAX, "no SQL given");
        }
        return open().execute(this, sql, params == null ? NO_PARAMS : params);
    }

    @Override
    public void close() {
        DeriveManagedConnection mc = connection;
        if (closed) {
            return;
        }
        closed = true;
        if (mc != null) {
            mc.handleClosed(this);
        }
    }

    private DeriveManagedConnection open() {
        DeriveManagedConnection mc = connection;
        if (closed || mc == null) {
            throw new DeriveException(DeriveException.TRANSACTION_STATE, "the Derive connection is closed");
        }
        return mc;
    }
}
