package io.derive.engine.durable;

import io.derive.engine.spi.HostedTable;
import io.derive.engine.spi.RowCursor;
import io.derive.engine.spi.TableConnection;
import io.derive.engine.txn.SessionResources;

import java.util.function.Consumer;

/**
 * Reads and writes of the durable host's own tables (the catalog, its meta entries, the
 * operators' decisions), each in a host transaction of its own outside every engine session.
 */
final class SystemTableRows {
    private SystemTableRows() {
    }

    /** Hands every committed row of {@code table} to {@code sink}, in key order. */
    static void read(HostedTable table, Consumer<Object[]> sink) {
        try (SessionResources session = new SessionResources("catalog reader")) {
            TableConnection c = table.connect(session);
            try (RowCursor rows = c.scan(new Object[0], false)) {
                rows.forEachRemaining(sink);
            } finally {
                c.rollback();
            }
        }
    }

    /** Runs {@code work} on a connection to {@code table} and commits it, durably when this returns. */
    static void write(HostedTable table, Consumer<TableConnection> work) {
        try (SessionResources session = new SessionResources("catalog writer")) {
            TableConnection c = table.connect(session);
            try {
                work.accept(c);
                c.prepare();
                c.commit();
            } catch (RuntimeException e) {
                c.rollback();
                throw e;
            }
        }
    }
}
