package io.derive.rar;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.Derive;
import io.derive.engine.api.Database;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Timer;

import javax.transaction.xa.XAResource;

import jakarta.resource.NotSupportedException;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.ActivationSpec;
import jakarta.resource.spi.BootstrapContext;
import jakarta.resource.spi.ResourceAdapter;
import jakarta.resource.spi.ResourceAdapterInternalException;
import jakarta.resource.spi.UnavailableException;
import jakarta.resource.spi.endpoint.MessageEndpointFactory;

/**
 * The resource adapter JavaBean: owns the engine {@link Database}s for the adapter's lifetime.
 *
 * <p>Each database is opened once, when the container makes the first connection factory or
 * managed connection of its configuration, and shared by every managed connection (one engine
 * session each); {@link #stop()} closes them all, leaving prepared branches in doubt for the
 * next start's recovery.
 */
public class DeriveResourceAdapter implements ResourceAdapter {

    private static final Logger LOG = System.getLogger(DeriveResourceAdapter.class.getName());

    // Guarded by "this": open/close are rare, so one lock keeps start/stop and first use simple.
    private final Map<String, Database> databases = new LinkedHashMap<>();
    private final Map<String, GlobalTransactions> transactions = new LinkedHashMap<>();
    private Timer timeouts;
    private boolean running;

    /**
     * Connectors spec (BootstrapContext.createTimer): an adapter gets the timers it needs from
     * its bootstrap context; branch timeouts run on this one. Without a context (outside a
     * container) the adapter makes its own daemon timer.
     */
    @Override
    public synchronized void start(BootstrapContext context) throws ResourceAdapterInternalException {
        try {
            timeouts = context == null ? new Timer("derive-branch-timeouts", true) : context.createTimer();
        } catch (UnavailableException e) {
            throw new ResourceAdapterInternalException("no timer for branch timeouts: " + e.getMessage(), e);
        }
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
            transactions.clear();
            if (timeouts != null) {
                timeouts.cancel();
                timeouts = null;
            }
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
            try {
                db = Derive.open(config);
            } catch (RuntimeException e) {
                throw new ResourceAdapterInternalException("cannot open Derive database " + config.name() + ": " + e.getMessage(), e);
            }
            databases.put(config.name(), db);
            transactions.put(config.name(), new GlobalTransactions(timeouts));
            LOG.log(Level.INFO, "opened Derive database {0} (default host {1})", config.name(), config.defaultHost());
        }
        return db;
    }

    /** The live global transactions of the open database {@code name} (see {@link #database}). */
    synchronized GlobalTransactions transactions(String name) {
        GlobalTransactions live = transactions.get(name);
        if (live == null) {
            throw new IllegalStateException("database " + name + " is not open");
        }
        return live;
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
