package io.derive.engine.scenario;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.spi.BackingHost;
import io.derive.engine.spi.BackingRowChange;
import io.derive.engine.spi.HostSession;
import io.derive.engine.spi.HostedTable;
import io.derive.engine.spi.IndexShape;
import io.derive.engine.spi.MaintenanceOp;
import io.derive.engine.spi.RowCursor;
import io.derive.engine.spi.TableConnection;
import io.derive.engine.spi.TableModule;
import io.derive.engine.spi.TableShape;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * What the backings of a database's materialized views report, on any host: {@link #around}
 * wraps every table module the database would use, and each {@link BackingHost#applyMaintenance}
 * call's realized {@link BackingRowChange}s are logged under the backing's schema and name (the
 * MV's name when it was created: a rename keeps the backing). The scenario runner clears the log
 * before a statement and reads it after, for {@code -- expect: delta}.
 */
public final class BackingChangeLog {
    private record Entry(String schema, String name, BackingRowChange change) {
    }

    private final List<Entry> entries = new ArrayList<>();
    private final List<TableShape> backings = new ArrayList<>();

    /**
     * {@code config} with every module its database would use (those {@link ServiceLoader}
     * finds and those it registers, the registered one winning a name as in
     * {@code Database.open}) wrapped so that their backings report to this log.
     */
    public DatabaseConfig around(DatabaseConfig config) {
        Map<String, TableModule> modules = new LinkedHashMap<>();
        for (TableModule m : ServiceLoader.load(TableModule.class, TableModule.class.getClassLoader())) {
            modules.put(m.name(), m);
        }
        for (TableModule m : config.modules()) {
            modules.put(m.name(), m);
        }
        DatabaseConfig wrapped = config;
        for (TableModule m : modules.values()) {
            wrapped = wrapped.withModule(new Module(m));
        }
        return wrapped;
    }

    /** Forgets every logged change. */
    public synchronized void clear() {
        entries.clear();
    }

    /** Whether a table that can back an MV and that {@code delta} names was created since the log wrapped the modules. */
    public synchronized boolean knows(ExpectedDelta delta) {
        return backings.stream().anyMatch(shape -> delta.names(shape.schema(), shape.name()));
    }

    /** The changes logged for the backing {@code delta} names, in the order they were reported. */
    public synchronized List<ExpectedDelta.Change> changesOf(ExpectedDelta delta) {
        List<ExpectedDelta.Change> changes = new ArrayList<>();
        for (Entry e : entries) {
            if (delta.names(e.schema(), e.name())) {
                changes.add(rendered(e.change()));
            }
        }
        return changes;
    }

    private static ExpectedDelta.Change rendered(BackingRowChange c) {
        return switch (c.kind()) {
            case INSERT -> ExpectedDelta.Change.insert(row(c.after()));
            case DELETE -> ExpectedDelta.Change.delete(row(c.before()));
            case UPDATE -> ExpectedDelta.Change.update(row(c.before()), row(c.after()));
        };
    }

    private static List<String> row(Object[] values) {
        return ValueText.renderRow(Arrays.asList(values));
    }

    private synchronized void registered(TableShape shape) {
        backings.add(shape);
    }

    private synchronized void log(TableShape shape, List<BackingRowChange> changes) {
        for (BackingRowChange change : changes) {
            entries.add(new Entry(shape.schema(), shape.name(), change));
        }
    }

    /** A module whose tables' backings report to the log; everything else is the wrapped module's. */
    private final class Module implements TableModule {
        private final TableModule module;

        Module(TableModule module) {
            this.module = module;
        }

        @Override
        public String name() {
            return module.name();
        }

        @Override
        public void start(String databaseName) {
            module.start(databaseName);
        }

        @Override
        public HostedTable create(TableShape shape, List<String> args) {
            return new Table(module.create(shape, args));
        }

        @Override
        public Optional<TableModule> durableAt(Path directory) {
            return module.durableAt(directory);
        }

        @Override
        public Optional<HostedTable> systemTable(String name, TableShape shape) {
            return module.systemTable(name, shape);
        }

        @Override
        public Optional<HostedTable> reopen(String storageId, TableShape shape, java.util.OptionalLong committedRows) {
            return module.reopen(storageId, shape, committedRows).map(Table::new);
        }

        @Override
        public void sweep() {
            module.sweep();
        }

        @Override
        public Optional<io.derive.engine.types.Collation> keyCollation(List<String> args) {
            return module.keyCollation(args);
        }

        @Override
        public void close() {
            module.close();
        }
    }

    private final class Table implements HostedTable {
        private final HostedTable table;
        private final Optional<BackingHost> host;

        Table(HostedTable table) {
            this.table = table;
            this.host = table.backingHost().map(Host::new);
            host.ifPresent(h -> registered(table.shape()));
        }

        @Override
        public TableShape shape() {
            return table.shape();
        }

        @Override
        public TableConnection connect(HostSession session) {
            return table.connect(session);
        }

        @Override
        public Optional<String> storageId() {
            return table.storageId();
        }

        @Override
        public long committedRowCount() {
            return table.committedRowCount();
        }

        @Override
        public Optional<BackingHost> backingHost() {
            return host;
        }

        @Override
        public void createIndex(IndexShape index) {
            table.createIndex(index);
        }

        @Override
        public boolean reopenIndex(IndexShape index) {
            return table.reopenIndex(index);
        }

        @Override
        public void dropIndex(String name) {
            table.dropIndex(name);
        }

        @Override
        public HostedTable reshape(TableConnection connection, TableShape newShape, UnaryOperator<Object[]> rowMapping,
                                   Supplier<? extends RuntimeException> onDuplicateKey) {
            HostedTable reshaped = table.reshape(connection, newShape, rowMapping, onDuplicateKey);
            return reshaped == table ? this : new Table(reshaped);
        }

        @Override
        public void drop() {
            table.drop();
        }

        private final class Host implements BackingHost {
            private final BackingHost backing;

            Host(BackingHost backing) {
                this.backing = backing;
            }

            @Override
            public boolean ownsConnection(TableConnection connection) {
                return backing.ownsConnection(connection);
            }

            @Override
            public TableConnection connect(HostSession session) {
                return backing.connect(session);
            }

            @Override
            public List<BackingRowChange> applyMaintenance(TableConnection connection, List<MaintenanceOp> ops) {
                List<BackingRowChange> realized = backing.applyMaintenance(connection, ops);
                log(table.shape(), realized);
                return realized;
            }

            @Override
            public void replaceContents(List<Object[]> rows, Supplier<? extends RuntimeException> onDuplicateKey) {
                backing.replaceContents(rows, onDuplicateKey);
            }

            @Override
            public RowCursor scanEffective(TableConnection connection, Object[] prefix, boolean descending) {
                return backing.scanEffective(connection, prefix, descending);
            }
        }
    }
}
