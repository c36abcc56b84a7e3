package io.derive.memory;

import io.derive.engine.spi.HostedTable;
import io.derive.engine.spi.TableModule;
import io.derive.engine.spi.TableShape;

import java.lang.ref.WeakReference;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The memory module, keeping a weak handle on each table it creates, so that a test can look at
 * a table's storage, or see that nothing holds on to it any more.
 */
final class WatchedMemoryModule implements TableModule {
    private final MemoryTableModule delegate = new MemoryTableModule();
    private final Map<String, WeakReference<HostedTable>> created = new ConcurrentHashMap<>();

    @Override
    public String name() {
        return "memory";
    }

    @Override
    public HostedTable create(TableShape shape, List<String> args) {
        HostedTable table = delegate.create(shape, args);
        created.put(shape.name(), new WeakReference<>(table));
        return table;
    }

    /** The table last created under {@code name}, or null when none was or it has been collected. */
    HostedTable created(String name) {
        WeakReference<HostedTable> table = created.get(name);
        return table == null ? null : table.get();
    }
}
