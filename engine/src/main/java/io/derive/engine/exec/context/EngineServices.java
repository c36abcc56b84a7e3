package io.derive.engine.exec.context;

import io.derive.engine.api.DeriveException;
import io.derive.engine.api.InDoubtBranch;
import io.derive.engine.api.RehydrateReport;
import io.derive.engine.exec.query.StatementTextCounters;
import io.derive.engine.exec.query.SystemTables;
import io.derive.engine.exec.query.VerifyReports;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.spi.HostedTable;
import io.derive.engine.spi.IndexShape;
import io.derive.engine.spi.TableModule;
import io.derive.engine.spi.TableShape;
import io.derive.engine.txn.CommittedState;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The parts of a database its statements share: committed state, table modules, the default
 * host and the materialized-view operations.
 */
public final class EngineServices {
    private final String databaseName;
    private final CommittedState committed;
    private final Map<String, TableModule> modules;
    private final String defaultHost;
    private final SystemTables systemTables;
    private final SchemaChangeEvents schemaChanges = new SchemaChangeEvents();
    private MaterializedViewOperations materializedViews;
    private volatile Rehydration rehydration;
    private volatile RehydrateReport rehydrateReport = RehydrateReport.NONE;
    private volatile String unavailable;
    private volatile Supplier<List<InDoubtBranch>> inDoubtBranches = List::of;
    private final VerifyReports verifyReports = new VerifyReports();
    private final RunEvaluations runEvaluations = new RunEvaluations();
    private final StatementTextCounters statementTexts = new StatementTextCounters();

    public EngineServices(String databaseName, CommittedState committed, Map<String, TableModule> modules, String defaultHost) {
        this.databaseName = databaseName;
        this.committed = committed;
        this.systemTables = new SystemTables(this::rehydrateReport, () -> this.inDoubtBranches.get(),
                (catalog, mv) -> this.materializedViews.covers(catalog, mv), committed.locks(), verifyReports::all,
                committed.counters(), committed.pendingRehydrates(), statementTexts);
        this.modules = Map.copyOf(modules);
        this.defaultHost = defaultHost;
    }

    /** Wires the MV operations in; they need these services themselves, so they come second. */
    public void materializedViews(MaterializedViewOperations operations) {
        this.materializedViews = operations;
    }

    public MaterializedViewOperations materializedViews() {
        return materializedViews;
    }

    /** Where {@code verify materialized view} records what it found, for {@code verify_report()}. */
    public VerifyReports verifyReports() {
        return verifyReports;
    }

    /** How often sessions reused or parsed a statement text, for {@code statement_cache()}. */
    public StatementTextCounters statementTexts() {
        return statementTexts;
    }

    /** What the chunked refresh runs of this open keep in memory, and the open's identity. */
    public RunEvaluations runEvaluations() {
        return runEvaluations;
    }

    /** What the open did, each view it left pending shown refilled once its refill has committed. */
    public RehydrateReport rehydrateReport() {
        java.util.Set<String> pending = new java.util.HashSet<>();
        committed.pendingRehydrates().all().forEach(p -> pending.add(p.object().key()));
        return rehydrateReport.withRefills(o -> pending.contains(io.derive.engine.schema.Catalog.key(o.schema(), o.name())));
    }

    public void rehydrateReport(RehydrateReport report) {
        this.rehydrateReport = report;
    }

    /** Where {@code in_doubt()} lists the in-doubt branches from (none by default). */
    public void inDoubtBranches(Supplier<List<InDoubtBranch>> listing) {
        this.inDoubtBranches = listing;
    }

    /**
     * Makes every statement of a session fail, with {@code reason} in its message, until called
     * again with {@code null}: while the database cannot open yet, waiting for in-doubt branches.
     */
    public void unavailable(String reason) {
        this.unavailable = reason;
    }

    /**
     * @throws DeriveException {@link DeriveException#IN_DOUBT} while the database is
     *         {@linkplain #unavailable(String) unavailable}
     */
    public void requireAvailable() {
        String reason = unavailable;
        if (reason != null) {
            throw new DeriveException(DeriveException.IN_DOUBT, "database '" + databaseName + "' " + reason);
        }
    }

    /** Sets (or, with null, ends) the replay of a durable catalog; see {@link Rehydration}. */
    public void rehydration(Rehydration replay) {
        this.rehydration = replay;
    }

    /** New storage for a table, or, while a durable catalog replays, the stored storage of that table. */
    public HostedTable createStorage(TableModule module, TableShape shape, List<String> args) {
        Rehydration replay = rehydration;
        if (replay != null) {
            Optional<HostedTable> stored = replay.reopen(module, shape);
            if (stored.isPresent()) {
                return stored.get();
            }
        }
        return module.create(shape, args);
    }

    /**
     * Has the host build a secondary index of {@code table} over its rows, or, while a durable
     * catalog replays, reattach the entries it kept for it (building it only when it cannot).
     */
    public void buildIndex(TableSchema table, IndexShape index) {
        Rehydration replay = rehydration;
        if (replay != null) {
            replay.restoreIndex(table.schema(), table.name(), table.storage(), index);
        } else {
            table.storage().createIndex(index);
        }
    }

    /**
     * True while a durable catalog replays: its definitions were valid when stored, and a table a
     * CHECK reads may be replayed after the table declaring it.
     */
    public boolean rehydrating() {
        return rehydration != null;
    }

    /** True while a durable catalog replays and adopts this maintained table's stored rows. */
    public boolean adopting(String qualifiedName) {
        Rehydration replay = rehydration;
        return replay != null && replay.adopts(qualifiedName);
    }

    /** True while a durable catalog replays and refills this maintained table, which was stale ({@link Rehydration#refillsStale}). */
    public boolean refillingStale(String qualifiedName) {
        Rehydration replay = rehydration;
        return replay != null && replay.refillsStale(qualifiedName);
    }

    public String databaseName() {
        return databaseName;
    }

    public CommittedState committed() {
        return committed;
    }

    /** Where schema-change listeners subscribe; DDL statements fire through it. */
    public SchemaChangeEvents schemaChanges() {
        return schemaChanges;
    }

    public SystemTables systemTables() {
        return systemTables;
    }

    public String defaultHost() {
        return defaultHost;
    }

    public Iterable<TableModule> modules() {
        return modules.values();
    }

    /** The module of that name, or {@code no table module named 'x'}. */
    public TableModule module(String name) {
        TableModule module = modules.get(name);
        if (module == null) {
            throw new DeriveException(DeriveException.UNDEFINED_OBJECT, "no table module named '" + name + "'");
        }
        return module;
    }
}
