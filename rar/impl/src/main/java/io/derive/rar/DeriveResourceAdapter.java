package io.derive.rar;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.Derive;
import io.derive.engine.api.Database;
import io.derive.engine.api.DatabaseStatus;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import javax.transaction.xa.XAResource;

import jakarta.resource.NotSupportedException;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.ActivationSpec;
import jakarta.resource.spi.BootstrapContext;
import jakarta.resource.spi.ResourceAdapter;
import jakarta.resource.spi.ResourceAdapterInternalException;
import jakarta.resource.spi.endpoint.MessageEndpointFactory;

/**
 * The resource adapter JavaBean: owns the engine {@link Database}s for the adapter's lifetime.
 *
 * <p>Each database is opened once, when the container makes the first connection factory or
 * managed connection of its configuration, and shared by every managed connection (one engine
 * session each); {@link #stop()} closes them all, leaving prepared branches in doubt for the
 * next start's recovery. {@link #status(String)} tells where each database stands, without
 * waiting for an open in progress.
 */
public class DeriveResourceAdapter implements ResourceAdapter {

    private static final Logger LOG = System.getLogger(DeriveResourceAdapter.class.getName());

    // Guarded by "this": open/close are rare, so one lock keeps start/stop and first use simple.
    private final Map<String, Database> databases = new LinkedHashMap<>();
    // Written under "this", read without it: a health check must not wait for an open in progress.
    private final Map<String, Supplier<DatabaseStatus>> statuses = new ConcurrentHashMap<>();
    private volatile boolean running;

    @Override
    public synchronized void start(BootstrapContext context) throws ResourceAdapterInternalException {
        running = true;
        LOG.log(Level.INFO, "Derive resource adapter started");
    }

    @Override
    public void stop() {
        List<Database> toClose;
        synchronized (this) {
            running = false;
            toClose = new ArrayList<>(databases.values());
            databases.clear();
        }
        for (Database db : toClose) {
            try {
                db.close();
                LOG.log(Level.INFO, "closed Derive database {0}", db.name());
            } catch (RuntimeException e) {
                // Keep going: one database failing to close must not leave the others open.
                LOG.log(Level.WARNING, "closing Derive database " + db.name() + " failed", e);
            }
            XaCallJournal.drop(db.name());
        }
    }

    /**
     * The database with the given configuration's name, opened on first request. A later request
     * for the same name with a different configuration gets the already open database.
     */
    synchronized Database database(DatabaseConfig config) throws ResourceException {
        if (!running) {
            throw new ResourceAdapterInternalException("the Derive resource adapter is not started");
        }
        Database db = databases.get(config.name());
        if (db == null) {
            String name = config.name();
            DatabaseStatus opening = DatabaseStatus.opening("database '" + name + "' is opening: its catalog is read and its views rehydrated");
            statuses.put(name, () -> opening);
            try {
                db = Derive.open(config);
            } catch (RuntimeException e) {
                DatabaseStatus failed = DatabaseStatus.failed("database '" + name + "' could not be opened: " + e.getMessage());
                statuses.put(name, () -> failed);
                throw new ResourceAdapterInternalException("cannot open Derive database " + name + ": " + e.getMessage(), e);
            }
            databases.put(name, db);
            statuses.put(name, db::status);
            LOG.log(Level.INFO, "opened Derive database {0} (default host {1})", config.name(), config.defaultHost());
        }
        return db;
    }

    /**
     * Where the database of that name stands ({@link Database#status()} once it is open); a
     * database no one asked for yet, or one of a stopped adapter, is reported closed.
     */
    DatabaseStatus status(String name) {
        Supplier<DatabaseStatus> status = statuses.get(name);
        if (status != null) {
            return status.get();
        }
        return DatabaseStatus.closed("database '" + name + "' is not open" + (running ? "" : ": the resource adapter is stopped"));
    }

    @Override
    public void endpointActivation(MessageEndpointFactory factory, ActivationSpec spec) throws ResourceException {
        throw new NotSupportedException("the Derive resource adapter has no inbound messaging");
    }

    @Override
    public void endpointDeactivation(MessageEndpointFactory factory, ActivationSpec spec) {
        // Nothing was ever activated (see endpointActivation).
    }

    @Override
    public XAResource[] getXAResources(ActivationSpec[] specs) {
        // Only asked for inbound endpoints' recovery; with no inbound side there is nothing to offer.
        return new XAResource[0];
    }
}
