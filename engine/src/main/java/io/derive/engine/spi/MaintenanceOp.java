package io.derive.engine.spi;

import java.util.List;

/**
 * One privileged write the engine asks a {@link BackingHost} to apply to an MV backing.
 * Rows and keys follow the backing's {@link TableShape}.
 */
public sealed interface MaintenanceOp {

    /** Remove the row with this physical key, if present. */
    record DeleteKey(Object[] key) implements MaintenanceOp {
    }

    /** Insert the row, or replace the row with the same physical key (under the key collation). */
    record Upsert(Object[] row) implements MaintenanceOp {
    }

    /** Remove every row whose physical key starts with this prefix. */
    record DeleteByPrefix(Object[] prefix) implements MaintenanceOp {
    }

    /**
     * Make the contents exactly these rows (which have distinct keys), realized as the minimal
     * keyed diff against the effective contents.
     */
    record ReplaceAll(List<Object[]> rows) implements MaintenanceOp {
        public ReplaceAll {
            rows = List.copyOf(rows);
        }
    }
}
