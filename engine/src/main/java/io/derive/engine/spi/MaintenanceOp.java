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

    /**
     * Change the row at one key from {@code before} to {@code after} (either may be null: an
     * insert or a delete, not both), where the engine knows that {@code before} is the effective
     * row there (null: none) because the view equals its body and the arm derived it from the
     * source rows before the change. Hosts need not read it ({@link TableConnection#replace});
     * the realized change is {@code before} → {@code after}, or nothing when they are identical.
     * When both are given their keys are equal under the backing's key order.
     */
    record Change(Object[] before, Object[] after) implements MaintenanceOp {
        public Change {
            if (before == null && after == null) {
                throw new IllegalArgumentException("a change needs a row before or after it");
            }
        }

        /** The row of the change that carries its key. */
        public Object[] keyRow() {
            return after != null ? after : before;
        }
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
