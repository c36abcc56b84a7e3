package io.derive.engine.spi;

import java.util.List;
import java.util.function.Supplier;

/**
 * The capability of a table to store a materialized view's rows (semantics §7). One instance
 * belongs to one table incarnation; it is obtained from {@link HostedTable#backingHost()}.
 *
 * <p>Only the engine's MV maintenance calls it; these writes bypass read-only enforcement, which
 * is why they go through this interface and never through user DML (MV-014).
 */
public interface BackingHost {

    /** True only for a live connection to this incarnation. */
    boolean ownsConnection(TableConnection connection);

    /**
     * A fresh connection for a transaction of {@code session}, as {@link HostedTable#connect};
     * the engine registers it so commit, rollback and savepoints cover it.
     */
    TableConnection connect(HostSession session);

    /**
     * Applies the ops, in order, to the connection's pending state and reports each realized
     * change exactly (MV-016): a delete only when a row existed; an upsert as
     * {@link BackingRowChange.Kind#UPDATE} when it replaced a row and as
     * {@link BackingRowChange.Kind#INSERT} otherwise; a value-identical upsert writes and reports
     * nothing; a collation-equal but byte-different value is an update. A
     * {@link MaintenanceOp.Change} is reported as its rows say, without reading them.
     *
     * @throws IllegalArgumentException when the connection is not {@linkplain #ownsConnection owned}
     */
    List<BackingRowChange> applyMaintenance(TableConnection connection, List<MaintenanceOp> ops);

    /**
     * Atomically replaces the committed contents: readers see all old rows or all new ones. Used
     * only while no transaction has this table open.
     *
     * @throws RuntimeException the exception {@code onDuplicateKey} supplies, when two rows share
     *         a key; the contents are then unchanged
     */
    void replaceContents(List<Object[]> rows, Supplier<? extends RuntimeException> onDuplicateKey);

    /** {@link TableConnection#scan} of the connection: pending over committed, in key order. */
    RowCursor scanEffective(TableConnection connection, Object[] prefix, boolean descending);
}
