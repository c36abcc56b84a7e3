package io.derive.engine;

import io.derive.engine.api.BranchId;
import io.derive.engine.api.Database;
import io.derive.engine.api.DatabaseStatus;
import io.derive.engine.api.DeriveException;
import io.derive.engine.api.InDoubtBranch;
import io.derive.engine.api.RehydrateReport;
import io.derive.engine.api.Session;
import io.derive.engine.durable.DurableCatalog;
import io.derive.engine.durable.Rehydrator;
import io.derive.engine.exec.EngineSession;
import io.derive.engine.exec.context.EngineServices;
import io.derive.engine.mv.MaterializedViews;
import io.derive.engine.spi.TableModule;
import io.derive.engine.txn.CommittedState;
import io.derive.engine.txn.HeapPressure;

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
    private final RehydrateMode rehydrateMode;
    private final int statementCacheSize;
    private final HeapPressure heapPressure;
    private DurableCatalog durable;
    private TableModule durableHost;
    /** The in-doubt branches of the durable host, and the operators' decisions of them; null unless durable. */
    private InDoubtRecovery recovery;
    // Set when the database failed or closed; read without a lock so that status() never waits.
    private volatile DatabaseStatus ended;
    private volatile boolean closed;

    private EngineDatabase(DatabaseConfig config, Map<String, TableModule> modules) {
        this.name = config.name();
        this.modules = modules;
        this.rehydrateMode = config.rehydrateMode();
        this.statementCacheSize = config.statementCacheSize();
        this.heapPressure = HeapPressure.watch();
        CommittedState committed = new CommittedState(config.name(), config.writeLockTimeout(), heapPressure);
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
        }
        LOG.log(Level.INFO, "opened Derive database ''{0}'' with table modules {1}", config.name(), modules.keySet());
        return database;
    }

    /**
     * Rehydrates now, or — when the durable host holds branches an ended process prepared that
     * changed the catalog — once they are decided: until then the catalog rows they wrote are
     * locked and of unknown outcome, so nothing may be read or adopted from them. What other
     * in-doubt branches wrote waits alone (see {@link InDoubtRecovery}).
     */
    private void openDurable(DatabaseConfig config) {
        durableHost = modules.get(config.durableHost());
        if (durableHost == null) {
            close();
            throw new DeriveException(DeriveException.UNDEFINED_OBJECT, "no table module named '" + config.durableHost()
                    + "' to keep the catalog of database '" + config.name() + "'");
        }
        try {
            recovery = InDoubtRecovery.open(name, durableHost, services, this::rehydrate, this::ownSession);
        } catch (RuntimeException e) {
            close();
            throw e;
        }
        services.inDoubtBranches(recovery::listing);
    }

    /**
     * @param branchesAtOpen whether the host held in-doubt branches at the open: their outcomes
     *                       change rows, so the database is marked open at once
     */
    private Rehydrator rehydrate(boolean branchesAtOpen) {
        try {
            durable = DurableCatalog.open(durableHost, name);
            if (branchesAtOpen) {
                durable.markOpen();
            }
            Rehydrator rehydrator = new Rehydrator(durable, services, rehydrateMode == RehydrateMode.DEFERRED);
            try (Session session = ownSession()) {
                services.rehydrateReport(rehydrator.run(session));
            }
            services.committed().persistThrough(durable);
            return rehydrator;
        } catch (RuntimeException e) {
            durable = null;
            ended = DatabaseStatus.failed("database '" + name + "' could not be rehydrated: " + e.getMessage());
            close();
            throw e;
        }
    }

    /** A session of the database's own: it works while the database waits, and on what is fenced. */
    private Session ownSession() {
        // it runs statements the database makes, each once
        return new EngineSession(services, sessionIds.incrementAndGet(), 0, true);
    }

    @Override
    public List<BranchId> inDoubt() {
        requireNotClosed();
        Set<BranchId> all = new LinkedHashSet<>(services.committed().branches().xids());
        if (durableHost != null) {
            durableHost.inDoubt().forEach(x -> all.add(BranchId.of(x)));
            all.addAll(recovery.decided());
        }
        return List.copyOf(all);
    }

    @Override
    public List<InDoubtBranch> inDoubtBranches() {
        requireNotClosed();
        return recovery == null ? List.of() : recovery.listing();
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
        requireRecovery(xid).decide(xid, commit);
    }

    @Override
    public void resolveHeuristically(Xid xid, boolean commit) {
        requireNotClosed();
        BranchId branch = BranchId.of(xid);
        if (services.committed().branches().contains(branch)) {
            throw new DeriveException(DeriveException.UNDEFINED_OBJECT, "transaction branch " + branch + " is prepared by a "
                    + "live session of database '" + name + "': its transaction manager decides it");
        }
        requireRecovery(branch).resolveHeuristically(branch, commit);
    }

    @Override
    public void forgetHeuristic(Xid xid) {
        requireNotClosed();
        BranchId branch = BranchId.of(xid);
        requireRecovery(branch).forget(branch);
    }

    private InDoubtRecovery requireRecovery(BranchId xid) {
        if (recovery == null) {
            throw new DeriveException(DeriveException.UNDEFINED_OBJECT, "database '" + name + "' has no prepared branch " + xid);
        }
        return recovery;
    }

    @Override
    public DatabaseStatus status() {
        DatabaseStatus end = ended;
        if (end != null) {
            return end;
        }
        return liveStatus().withPendingRehydrates(services.committed().pendingRehydrates().count());
    }

    /** The status of a database neither closed nor failed, pending rehydrates aside. */
    private DatabaseStatus liveStatus() {
        if (recovery != null) {
            int waits = recovery.catalogWaits();
            if (waits > 0) {
                return DatabaseStatus.waitingForInDoubt(waits, "database '" + name + "' " + recovery.catalogWait());
            }
            if (recovery.rehydrating()) {
                return DatabaseStatus.opening("database '" + name + "' rehydrates now that the in-doubt transactions "
                        + "that changed its catalog are decided");
            }
            // Open, but not ready: what these branches wrote, and the views over it, wait for their outcome.
            List<String> undecided = recovery.listing().stream().filter(b -> b.state() == InDoubtBranch.State.IN_DOUBT)
                    .map(b -> b.xid() + " (wrote " + String.join(", ", b.touched()) + ")").toList();
            if (!undecided.isEmpty()) {
                return DatabaseStatus.waitingForInDoubt(undecided.size(), "database '" + name + "' waits for the outcome of "
                        + undecided.size() + " in-doubt transaction" + (undecided.size() == 1 ? "" : "s") + " a process left prepared: "
                        + String.join("; ", undecided) + "; what they wrote waits, the rest answers");
            }
        }
        return DatabaseStatus.open("open");
    }

    @Override
    public RehydrateReport rehydrateReport() {
        return services.rehydrateReport();
    }

    @Override
    public Session openSession() {
        requireNotClosed();
        return new EngineSession(services, sessionIds.incrementAndGet(), statementCacheSize, false);
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
        if (ended == null) {
            ended = DatabaseStatus.closed("database '" + name + "' is closed");
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
        heapPressure.close();
        LOG.log(Level.INFO, "closed Derive database ''{0}''", name);
    }
}
