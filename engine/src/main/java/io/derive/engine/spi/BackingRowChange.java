package io.derive.engine.spi;

/**
 * One realized change of a backing's effective contents, as reported by
 * {@link BackingHost#applyMaintenance}.
 *
 * @param kind   what happened
 * @param before the row before ({@code null} for {@link Kind#INSERT})
 * @param after  the row after ({@code null} for {@link Kind#DELETE})
 */
public record BackingRowChange(Kind kind, Object[] before, Object[] after) {

    public enum Kind { INSERT, UPDATE, DELETE }

    public static BackingRowChange insert(Object[] row) {
        return new BackingRowChange(Kind.INSERT, null, row);
    }

    public static BackingRowChange update(Object[] before, Object[] after) {
        return new BackingRowChange(Kind.UPDATE, before, after);
    }

    public static BackingRowChange delete(Object[] row) {
        return new BackingRowChange(Kind.DELETE, row, null);
    }
}
