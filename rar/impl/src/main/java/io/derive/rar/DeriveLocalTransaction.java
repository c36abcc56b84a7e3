package io.derive.rar;

import io.derive.engine.api.DeriveException;

import jakarta.resource.ResourceException;
import jakarta.resource.spi.LocalTransaction;
import jakarta.resource.spi.LocalTransactionException;

/**
 * A container-driven local transaction on one managed connection: the engine session's own
 * transaction. It cannot be used while the connection carries an XA branch.
 */
final class DeriveLocalTransaction implements LocalTransaction {

    private final DeriveManagedConnection connection;

    DeriveLocalTransaction(DeriveManagedConnection connection) {
        this.connection = connection;
    }

    @Override
    public void begin() throws ResourceException {
        synchronized (connection) {
            if (connection.xaResource().hasBranch()) {
                throw new LocalTransactionException("the connection is part of a JTA transaction");
            }
            run(() -> connection.session().begin(), "begin");
        }
    }

    @Override
    public void commit() throws ResourceException {
        synchronized (connection) {
            requireOpen("commit");
            run(() -> connection.session().commit(), "commit");
        }
    }

    @Override
    public void rollback() throws ResourceException {
        synchronized (connection) {
            requireOpen("rollback");
            run(() -> connection.session().rollback(), "rollback");
        }
    }

    private void requireOpen(String operation) throws LocalTransactionException {
        if (!connection.session().inTransaction()) {
            throw new LocalTransactionException(operation + " without an open local transaction");
        }
    }

    private static void run(Runnable step, String operation) throws LocalTransactionException {
        try {
            step.run();
        } catch (DeriveException e) {
            LocalTransactionException failure = new LocalTransactionException(operation + " failed: " + e.getMessage(), e.code());
            failure.initCause(e);
            throw failure;
        }
    }
}
