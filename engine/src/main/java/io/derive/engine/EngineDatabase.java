package io.derive.engine;

import io.derive.engine.api.BranchId;
import io.derive.engine.api.Database;
import io.derive.engine.api.DatabaseStatus;
import io.derive.engine.api.DeriveException;
import io.derive.engine.api.RehydrateReport;
import io.derive.engine.api.Session;
import io.derive.engine.durable.DurableCatalog;
import io.derive.engine.durable.Rehydrator;
import io.derive.engine.exec.EngineSession;
import io.derive.engine.exec.context.EngineServices;
import io.derive.engine.mv.MaterializedViews;
import io.derive.engine.spi.TableModule;
import io.derive.engine.txn.CommittedState;
import io.derive.engine.txn.DatabaseWriteLock;

import java.lang.System.Logger.Level;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

import javax.transaction.xa.Xid;

/**
 * The engine's {@link Database}: it wires the catalog, the table modules, the execution
 * services and the materialized-view manager together. {@link Derive} opens it.
 *
 * <p>Table modules are those found by {@link ServiceLoader} on the class loader of
 * {@link TableModule} plus those given in the {@link DatabaseConfig}.
 */
final class EngineDatabase implements Database {
    private static final System.Logger LOG = System.getLogger(Database.class.getName());

    private final String name;
    private final EngineServices services;
    private final Map<String, TableModule> modules;
    private final AtomicLong sessionIds = new AtomicLong();
    private DurableCatalog durable;
    private TableModule durableHost;
    /** Branches an ended process left prepared on the durable host; the open completes when none is left. */
    private final Set<BranchId> waitingFor = new LinkedHashSet<>();
    // Written at each step of the open and at close; read without a lock so that status() never waits.
    private volatile DatabaseStatus status = DatabaseStatus.opening("opening");
    private volatile boolean closed;

    private EngineDatabase(DatabaseConfig config, Map<String, TableModule> modules) {
        this.name = config.name();
        this.modules = modules;
        CommittedState committed = new CommittedState(new DatabaseWriteLock(config.name()), config.writeLockTimeout());
        this.services = new EngineServices(config.name(), committed, modules, config.defaultHost());
        services.materializedViews(new MaterializedViews());
        config.schemaChangeListeners().forEach(services.schemaChanges()::subscribe);
    }

    static Database open(DatabaseConfig config) {
        Map<String, TableModule> modules = new LinkedHashMap<>();
        for (TableModule m : ServiceLoader.load(TableModule.class, TableModule.class.getClassLoader())) {
            modules.put(m.name(), m);
        }
        for (TableModule m : config.modules()) {
            modules.put(m.name(), m);
        }
        if (!modules.containsKey(config.defaultHost())) {
            throw new DeriveException(DeriveException.UNDEFINED_OBJECT, "no table module named '"
                    + config.defaultHost() + "' (the default host of database '" + config.name() + "'); available: "
                    + modules.keySet());
        }
        modules.values().forEach(m -> m.start(config.name()));
        EngineDatabase database = new EngineDatabase(config, modules);
        if (config.durableHost() != null) {
            database.openDurable(config);
        } else {
            database.status = DatabaseStatus.open("open");
        }
        LOG.log(Level.INFO, "opened Derive database ''{0}'' with table modules {1}", config.name(), modules.keySet());
        return database;
    }

    /**
     * Rehydrates now, or — when the durable host holds branches an ended process prepared — once
     * they are decided: until then what they wrote (catalog rows included) is locked and of
     * unknown outcome, so nothing may be read or adopted from it.
     */
    private void openDurable(DatabaseConfig config) {
        durableHost = modules.get(config.durableHost());
        if (durableHost == null) {
            close();
            throw new DeriveException(DeriveException.UNDEFINED_OBJECT, "no table module named '" + config.durableHost()
                    + "' to keep the catalog of database '" + config.name() + "'");
        }
        List<Xid> inDoubt;
        try {
            inDoubt = durableHost.inDoubt();
        } catch (RuntimeException e) {
            close();
            throw e;
        }
        if (inDoubt.isEmpty()) {
            rehydrate();
            status = DatabaseStatus.open("open");
            return;
        }
        synchronized (waitingFor) {
            inDoubt.forEach(x -> waitingFor.add(BranchId.of(x)));
            waitForInDoubt();
        }
        LOG.log(Level.WARNING, "database ''{0}'' waits for the outcome of in-doubt transactions {1}: it opens once "
                + "their transaction manager (or an operator) has committed or rolled them back", name, waitingFor);
    }

    /** Fails every statement, and reports the status, with the branches still undecided. Holds "waitingFor". */
    private void waitForInDoubt() {
        String reason = "waits for the outcome of " + waitingFor.size() + " in-doubt transaction" + (waitingFor.size() == 1 ? "" : "s")
                + " " + waitingFor + " a process left prepared; it opens once they are committed or rolled back";
        services.unavailable(reason);
        status = DatabaseStatus.waitingForInDoubt(waitingFor.size(), "database '" + name + "' " + reason);
    }

    private void rehydrate() {
        try {
            durable = DurableCatalog.open(durableHost, name);
            try (Session session = new EngineSession(services, sessionIds.incrementAndGet(), true)) {
                services.rehydrateReport(new Rehydrator(durable, services).run(session));
            }
            services.committed().persistThrough(durable);
        } catch (RuntimeException e) {
            durable = null;
            status = DatabaseStatus.failed("database '" + name + "' could not be rehydrated: " + e.getMessage());
            close();
            throw e;
        }
    }

    @Override
    public List<BranchId> inDoubt() {
        requireNotClosed();
        Set<BranchId> all = new LinkedHashSet<>(services.committed().branches().xids());
        if (durableHost != null) {
            durableHost.inDoubt().forEach(x -> all.add(BranchId.of(x)));
        }
        return List.copyOf(all);
    }

    @Override
    public void commitInDoubt(Xid xid) {
        decide(BranchId.of(xid), true);
    }

    @Override
    public void rollbackInDoubt(Xid xid) {
        decide(BranchId.of(xid), false);
    }

    private void decide(BranchId xid, boolean commit) {
        requireNotClosed();
        if (services.committed().branches().decide(xid, commit)) {
            return;
        }
        if (durableHost == null) {
            throw new DeriveException(DeriveException.UNDEFINED_OBJECT, "database '" + name + "' has no prepared branch " + xid);
        }
        synchronized (waitingFor) {
            durableHost.completeInDoubt(xid, commit);
            LOG.log(Level.INFO, "database ''{0}'': in-doubt branch {1} {2}", name, xid, commit ? "committed" : "rolled back");
            if (waitingFor.remove(xid)) {
                if (waitingFor.isEmpty()) {
                    String opening = "rehydrates now that its in-doubt transactions are decided";
                    services.unavailable(opening);
                    status = DatabaseStatus.opening("database '" + name + "' " + opening);
                    rehydrate();
                    services.unavailable(null);
                    status = DatabaseStatus.open("open");
                    LOG.log(Level.INFO, "opened Derive database ''{0}'' now that its in-doubt transactions are decided", name);
                } else {
                    waitForInDoubt();
                }
            }
        }
    }

    @Override
    public DatabaseStatus status() {
        return status;
    }

    @Override
    public RehydrateReport rehydrateReport() {
        return services.rehydrateReport();
    }

    @Override
    public Session openSession() {
        requireNotClosed();
        return new EngineSession(services, sessionIds.incrementAndGet());
    }

    private void requireNotClosed() {
        if (closed) {
            throw new DeriveException(DeriveException.TRANSACTION_STATE, "database '" + name + "' is closed");
        }
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (!status.isFailed()) {
            status = DatabaseStatus.closed("database '" + name + "' is closed");
        }
        if (durable != null) {
            try {
                durable.markClosed();
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "could not record the clean close of database " + name, e);
            }
        }
        for (TableModule m : modules.values()) {
            try {
                m.close();
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "table module " + m.name() + " failed to close", e);
            }
        }
        LOG.log(Level.INFO, "closed Derive database ''{0}''", name);
    }
}
