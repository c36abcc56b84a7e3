package io.derive.rar;

import io.derive.client.DeriveConnection;
import io.derive.client.DeriveConnectionFactory;
import io.derive.engine.api.DatabaseStatus;
import io.derive.engine.api.DeriveException;

import javax.naming.Reference;

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
