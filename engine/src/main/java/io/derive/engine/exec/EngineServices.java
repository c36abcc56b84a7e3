package io.derive.engine.exec;

import io.derive.engine.api.DeriveException;
import io.derive.engine.spi.TableModule;
import io.derive.engine.txn.CommittedState;

import java.util.Map;

/**
 * The parts of a database its statements share: committed state, table modules, the default
 * host and the materialized-view operations.
 */
public final class EngineServices {
    private final String databaseName;
    private final CommittedState committed;
    private final Map<String, TableModule> modules;
    private final String defaultHost;
    private final SystemTables systemTables = new SystemTables();
    private final SchemaChangeEvents schemaChanges = new SchemaChangeEvents();
    private MaterializedViewOperations materializedViews;

    public EngineServices(String databaseName, CommittedState committed, Map<String, TableModule> modules, String defaultHost) {
        this.databaseName = databaseName;
        this.committed = committed;
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
