package io.derive.engine.spi;

import java.util.Optional;

/**
 * One incarnation of a table in a host: its committed rows, and the connections through which
 * transactions read and write them.
 *
 * <p>Committed state changes only when a {@link TableConnection} commits; a reader of committed
 * state sees all of a commit or none of it.
 */
public interface HostedTable {

    TableShape shape();

    /**
     * A fresh connection with empty pending state. The engine registers it with one transaction
     * and ends it with {@link TableConnection#commit()} or {@link TableConnection#rollback()}.
     */
    TableConnection connect();

    /** Rows in committed state. */
    long committedRowCount();

    /**
     * The backing-host capability (semantics §7): present when this table can store the rows of a
     * materialized view. The same instance is returned every time.
     */
    Optional<BackingHost> backingHost();

    /** Releases the storage. Called once, when the dropping transaction commits (or the creating one rolls back). */
    void drop();
}
