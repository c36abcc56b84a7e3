package io.derive.memory;

import io.derive.engine.api.DeriveException;
import io.derive.engine.spi.HostedTable;
import io.derive.engine.spi.TableModule;
import io.derive.engine.spi.TableShape;

import java.util.List;

/** The {@code memory} host: tables whose rows live in the JVM heap, lost when the database closes. */
public final class MemoryTableModule implements TableModule {

    @Override
    public String name() {
        return "memory";
    }

    /** Takes no arguments. */
    @Override
    public HostedTable create(TableShape shape, List<String> args) {
        if (!args.isEmpty()) {
            throw new DeriveException(DeriveException.SYNTAX, "table module 'memory' takes no arguments, got " + args);
        }
        return new MemoryTable(shape);
    }
}
