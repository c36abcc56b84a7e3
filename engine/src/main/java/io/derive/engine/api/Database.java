package io.derive.engine.api;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.durable.DurableCatalog;
import io.derive.engine.durable.Rehydrator;
import io.derive.engine.exec.context.EngineServices;
import io.derive.engine.exec.EngineSession;
import io.derive.engine.mv.MaterializedViews;
import io.derive.engine.spi.TableModule;
import io.derive.engine.txn.CommittedState;
import io.derive.engine.txn.DatabaseWriteLock;

import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An embedded Derive database: its catalog, its table modules and the sessions that use it.
 * Thread-safe; open it once and share it.
 *
 * <p>Table modules are those found by {@link ServiceLoader} on the class loader of
 * {@link TableModule} plus those given in the {@link DatabaseConfig}.
 */
public final class Database implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(Database.class.getName());

    private final String name;
    private final EngineServices services;
    private final Map<String, TableModule> modules;
    private final AtomicLong sessionIds = new AtomicLong();
    private DurableCatalog durable;
    private volatile boolean closed;

    private Database(DatabaseConfig config, Map<String, TableModule> modules) {
        this.name = config.name();
        this.modules = modules;
        CommittedState committed = new CommittedState(new DatabaseWriteLock(config.name()), config.writeLockTimeout());
        this.services = new EngineServices(config.name(), committed, modules, config.defaultHost());
        services.materializedViews(new MaterializedViews());
        config.schemaChangeListeners().forEach(services.schemaChanges()::subscribe);
    }

    /**
     * Opens a database.
     *
     * @throws DeriveException when the default host names no available module
     */
    public static Database open(DatabaseConfig config) {
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
        Database database = new Database(config, modules);
        if (config.durableHost() != null) {
            database.rehydrate(config);
        }
        LOG.log(Level.INFO, "opened Derive database ''{0}'' with table modules {1}", config.name(), modules.keySet());
        return database;
    }

    /**
     * Opens the durable database in {@code directory}, creating it when the directory holds none:
     * {@link DatabaseConfig#inDirectory(Path)}.
     */
    public static Database open(Path directory) {
        return open(DatabaseConfig.inDirectory(directory));
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

    /** What the open did with each materialized view of a durable database; {@link RehydrateReport#NONE} for another. */
    public RehydrateReport rehydrateReport() {
        return services.rehydrateReport();
    }

    /** A new session; sessions are cheap and not thread-safe. */
    public Session openSession() {
        if (closed) {
            throw new DeriveException(DeriveException.TRANSACTION_STATE, "database '" + name + "' is closed");
        }
        return new EngineSession(services, sessionIds.incrementAndGet());
    }

    public String name() {
        return name;
    }

    /** Closes every table module. Sessions still open can no longer be used meaningfully. */
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
