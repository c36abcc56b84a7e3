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
import java.util.Timer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.function.Supplier;

import javax.transaction.xa.XAResource;

import jakarta.resource.NotSupportedException;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.ActivationSpec;
import jakarta.resource.spi.BootstrapContext;
import jakarta.resource.spi.ResourceAdapter;
import jakarta.resource.spi.ResourceAdapterInternalException;
import jakarta.resource.spi.UnavailableException;
import jakarta.resource.spi.endpoint.MessageEndpointFactory;
import jakarta.resource.spi.work.Work;
import jakarta.resource.spi.work.WorkException;

/**
 * The resource adapter JavaBean: owns the engine {@link Database}s for the adapter's lifetime.
 *
 * <p>Each database is opened once, when the container makes the first connection factory or
 * managed connection of its configuration, and shared by every managed connection (one engine
 * session each); {@link #stop()} closes them all, leaving prepared branches in doubt for the
 * next start's recovery. The open runs as work of the container's {@code WorkManager}, so that
 * making a connection factory does not wait for a long rehydrate; whoever needs the database
 * itself waits for it, and {@link #status(String)} tells where it stands without waiting.
 */
public class DeriveResourceAdapter implements ResourceAdapter {

    private static final Logger LOG = System.getLogger(DeriveResourceAdapter.class.getName());

    // Guarded by "this": open/close are rare, so one lock keeps start/stop and first use simple.
    private final Map<String, CompletableFuture<Database>> databases = new LinkedHashMap<>();
    // Written under "this" and by the opening work, read without a lock: a health check must not wait for an open.
    private final Map<String, Supplier<DatabaseStatus>> statuses = new ConcurrentHashMap<>();
    private final Map<String, GlobalTransactions> transactions = new LinkedHashMap<>();
    private BootstrapContext context;
    private Timer timeouts;
    private volatile boolean running;

    /**
     * Starts the adapter; without a bootstrap context (outside a container, as in unit tests)
     * databases are opened in the thread that first asks for them, and branch timeouts run on a
     * daemon timer of the adapter's own. Connectors spec (BootstrapContext.createTimer): in a
     * container the adapter gets its timer from the bootstrap context.
     */
    @Override
    public synchronized void start(BootstrapContext context) throws ResourceAdapterInternalException {
        this.context = context;
        try {
            timeouts = context == null ? new Timer("derive-branch-timeouts", true) : context.createTimer();
        } catch (UnavailableException e) {
            throw new ResourceAdapterInternalException("no timer for branch timeouts: " + e.getMessage(), e);
        }
        running = true;
        LOG.log(Level.INFO, "Derive resource adapter started");
    }

    /** Closes every database, waiting for an open in progress to end first. */
    @Override
    public void stop() {
        List<CompletableFuture<Database>> toClose;
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
        for (CompletableFuture<Database> opening : toClose) {
            Database db;
            try {
                db = opening.get();
            } catch (ExecutionException e) {
                continue; // it never opened: nothing to close
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                LOG.log(Level.WARNING, "interrupted while waiting for a Derive database to open; it is left open");
                return;
            }
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
     * Starts opening the database of the configuration's name unless it is open or being opened,
     * and returns without waiting. An open that failed is tried again at the next request. A later
     * request for the same name with a different configuration gets the database already there.
     */
    synchronized CompletableFuture<Database> open(DatabaseConfig config) throws ResourceException {
        if (!running) {
            throw new ResourceAdapterInternalException("the Derive resource adapter is not started");
        }
        String name = config.name();
        CompletableFuture<Database> opening = databases.get(name);
        if (opening != null && !opening.isCompletedExceptionally()) {
            return opening;
        }
        CompletableFuture<Database> opened = new CompletableFuture<>();
        databases.put(name, opened);
        transactions.put(name, new GlobalTransactions(timeouts));
        DatabaseStatus starting = DatabaseStatus.opening("database '" + name + "' is opening: its catalog is read and its views rehydrated");
        statuses.put(name, () -> starting);
        Runnable work = () -> openNow(config, opened);
        if (context == null) {
            work.run();
        } else {
            try {
                context.getWorkManager().scheduleWork(new OpenWork(work));
            } catch (WorkException e) {
                fail(name, opened, e);
            }
        }
        return opened;
    }

    /**
     * The database of the configuration's name, waiting for its open.
     *
     * @throws ResourceException when it cannot be opened (the reason is the cause)
     */
    Database database(DatabaseConfig config) throws ResourceException {
        try {
            return open(config).get();
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            throw new ResourceAdapterInternalException("cannot open Derive database " + config.name() + ": " + cause.getMessage(), cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ResourceAdapterInternalException("interrupted while waiting for Derive database " + config.name() + " to open", e);
        }
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

    private void openNow(DatabaseConfig config, CompletableFuture<Database> opened) {
        Database db;
        try {
            db = Derive.open(config);
        } catch (RuntimeException | Error e) {
            // Whatever ends the open must complete it: the threads waiting for it would wait forever.
            fail(config.name(), opened, e);
            return;
        }
        statuses.put(config.name(), db::status);
        LOG.log(Level.INFO, "opened Derive database {0} (default host {1})", config.name(), config.defaultHost());
        opened.complete(db);
    }

    private void fail(String name, CompletableFuture<Database> opened, Throwable e) {
        DatabaseStatus failed = DatabaseStatus.failed("database '" + name + "' could not be opened: " + e.getMessage());
        statuses.put(name, () -> failed);
        LOG.log(Level.ERROR, "cannot open Derive database " + name, e);
        opened.completeExceptionally(e);
    }

    /** Connectors spec: an adapter runs its own background work as {@link Work} of the container's WorkManager. */
    private record OpenWork(Runnable open) implements Work {
        @Override
        public void run() {
            open.run();
        }

        @Override
        public void release() {
            // An open cannot be cut short without leaving the database half open; it ends by itself.
        }
    }

    /** The live global transactions of the database {@code name}, which was asked to {@linkplain #open open}. */
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
