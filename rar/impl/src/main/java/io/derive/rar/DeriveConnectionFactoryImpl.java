package io.derive.rar;

import io.derive.client.DeriveConnection;
import io.derive.client.DeriveConnectionFactory;
import io.derive.engine.api.Database;
import io.derive.engine.api.DatabaseStatus;
import io.derive.engine.api.DeriveException;
import io.derive.engine.api.InDoubtBranch;

import java.util.List;

import javax.naming.Reference;
import javax.transaction.xa.Xid;

import jakarta.resource.ResourceException;
import jakarta.resource.spi.ConnectionManager;

/** The connection factory the container binds in JNDI; every connection comes from its manager. */
public class DeriveConnectionFactoryImpl implements DeriveConnectionFactory {

    private static final long serialVersionUID = 1L;

    private final DeriveManagedConnectionFactory factory;
    private final ConnectionManager manager;
    private Reference reference;

    DeriveConnectionFactoryImpl(DeriveManagedConnectionFactory factory, ConnectionManager manager) {
        this.factory = factory;
        this.manager = manager;
    }

    @Override
    public DeriveConnection getConnection() {
        try {
            return (DeriveConnection) manager.allocateConnection(factory, null);
        } catch (ResourceException e) {
            throw new DeriveException(DeriveException.INTERNAL, "cannot obtain a Derive connection: " + e.getMessage(), e);
        }
    }

    @Override
    public DatabaseStatus status() {
        return factory.status();
    }

    @Override
    public List<InDoubtBranch> inDoubtBranches() {
        return database().inDoubtBranches();
    }

    @Override
    public void resolveInDoubt(Xid xid, boolean commit) {
        database().resolveHeuristically(xid, commit);
    }

    @Override
    public void forgetResolved(Xid xid) {
        database().forgetHeuristic(xid);
    }

    private Database database() {
        try {
            return factory.database();
        } catch (ResourceException e) {
            throw new DeriveException(DeriveException.INTERNAL, e.getMessage(), e);
        }
    }

    // Connectors spec (Referenceable): the container sets the Reference it binds in JNDI.
    @Override
    public void setReference(Reference reference) {
        this.reference = reference;
    }

    @Override
    public Reference getReference() {
        return reference;
    }
}
