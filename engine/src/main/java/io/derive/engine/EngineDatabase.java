package io.derive.engine;

import io.derive.engine.api.Database;
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
import java.util.Map;
import java.util.ServiceLoader;
import java.util.concurrent.atomic.AtomicLong;

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
            database.rehydrate(config);
        }
        LOG.log(Level.INFO, "opened Derive database ''{0}'' with table modules {1}", config.name(), modules.keySet());
        return database;
    }

    private void rehydrate(DatabaseConfig config) {
        TableModule host = modules.get(config.durableHost());
        if (host == null) {
            close();
            throw new DeriveException(DeriveException.UNDEFINED_OBJECT, "no table module named '" + config.durableHost()
                    + "' to keep the catalog of database '" + config.name() + "'");
        }
        try {
            durable = DurableCatalog.open(host, config.name());
            try (Session session = openSession()) {
                services.rehydrateReport(new Rehydrator(durable, services).run(session));
            }
            services.committed().persistThrough(durable);
        } catch (RuntimeException e) {
            durable = null;
            close();
            throw e;
        }
    }

    @Override
    public RehydrateReport rehydrateReport() {
        return services.rehydrateReport();
    }

    @Override
    public Session openSession() {
        if (closed) {
            throw new DeriveException(DeriveException.TRANSACTION_STATE, "database '" + name + "' is closed");
        }
        return new EngineSession(services, sessionIds.incrementAndGet());
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
