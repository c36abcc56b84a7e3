package io.derive.memory;

import io.derive.engine.contract.ReadCountingConnection;
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

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * The memory module, recording per table the {@link BackingRowChange}s every
 * {@link BackingHost#applyMaintenance} call reports, so tests can tell what a step changed,
 * and counting the rows read from the tables named by {@link #countReads}, so tests can tell how
 * much of a source maintenance read, and the rows read from the backings named by
 * {@link #countBackingReads}.
 */
final class RecordingMemoryModule implements TableModule {
    private final MemoryTableModule delegate = new MemoryTableModule();
    private final Map<String, List<String>> changes = new HashMap<>();
    private final Map<String, AtomicLong> reads = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> backingReads = new ConcurrentHashMap<>();

    /** Counts the rows read through connections to {@code table} (created before or after), from now on. */
    void countReads(String table) {
        reads.put(table, new AtomicLong());
    }

    /** The rows read from {@code table} since the last call (or since {@link #countReads}), and starts again. */
    long takeRowsRead(String table) {
        return reads.get(table).getAndSet(0);
    }

    /**
     * Counts the rows {@link BackingHost#scanEffective} hands out for the backing of
     * {@code table}, from now on. (Its connections stay unwrapped: the backing host accepts only
     * its own for maintenance.)
     */
    void countBackingReads(String table) {
        backingReads.put(table, new AtomicLong());
    }

    /** The rows scanned from {@code table}'s backing since the last call (or {@link #countBackingReads}), and starts again. */
    long takeBackingRowsRead(String table) {
        return backingReads.get(table).getAndSet(0);
    }

    @Override
    public String name() {
        return "memory";
    }

    @Override
    public HostedTable create(TableShape shape, List<String> args) {
        return new Recorded(delegate.create(shape, args));
    }

    /** The changes reported for {@code table} since the last call, as text, and forgets them. */
    List<String> take(String table) {
        List<String> taken = changes.getOrDefault(table, new ArrayList<>());
        changes.remove(table);
        return taken;
    }

    /** Forgets every recorded change. */
    void clear() {
        changes.clear();
    }

    static String text(BackingRowChange change) {
        return switch (change.kind()) {
            case INSERT -> "insert " + Arrays.toString(change.after());
            case DELETE -> "delete " + Arrays.toString(change.before());
            case UPDATE -> "update " + Arrays.toString(change.before()) + " -> " + Arrays.toString(change.after());
        };
    }

    private final class Recorded implements HostedTable {
        private final HostedTable table;
        private final Optional<BackingHost> host;

        Recorded(HostedTable table) {
            this.table = table;
            this.host = table.backingHost().map(RecordedHost::new);
        }

        @Override
        public TableShape shape() {
            return table.shape();
        }

        @Override
        public TableConnection connect(HostSession session) {
            AtomicLong counter = reads.get(table.shape().name());
            TableConnection connection = table.connect(session);
            return counter == null ? connection : new ReadCountingConnection(connection, counter);
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
        public void dropIndex(String name) {
            table.dropIndex(name);
        }

        @Override
        public HostedTable reshape(TableConnection connection, TableShape newShape, UnaryOperator<Object[]> rowMapping,
                                   Supplier<? extends RuntimeException> onDuplicateKey) {
            HostedTable reshaped = table.reshape(connection, newShape, rowMapping, onDuplicateKey);
            return reshaped == table ? this : new Recorded(reshaped);
        }

        @Override
        public void drop() {
            table.drop();
        }

        private final class RecordedHost implements BackingHost {
            private final BackingHost backing;

            RecordedHost(BackingHost backing) {
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
                List<String> log = changes.computeIfAbsent(table.shape().name(), n -> new ArrayList<>());
                realized.forEach(c -> log.add(text(c)));
                return realized;
            }

            @Override
            public void replaceContents(List<Object[]> rows, Supplier<? extends RuntimeException> onDuplicateKey) {
                backing.replaceContents(rows, onDuplicateKey);
            }

            @Override
            public RowCursor scanEffective(TableConnection connection, Object[] prefix, boolean descending) {
                RowCursor rows = backing.scanEffective(connection, prefix, descending);
                AtomicLong counter = backingReads.get(table.shape().name());
                return counter == null ? rows : ReadCountingConnection.counted(rows, counter);
            }
        }
    }
}
