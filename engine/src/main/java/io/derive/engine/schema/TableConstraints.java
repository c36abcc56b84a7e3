package io.derive.engine.schema;

import java.util.List;

/**
 * The rules a table's rows obey beyond column types and NOT NULL, and the secondary indexes that
 * serve them: CHECK constraints, foreign keys, and indexes (those carrying UNIQUE constraints
 * and those created by {@code create index}).
 */
public record TableConstraints(List<CheckConstraint> checks, List<ForeignKey> foreignKeys, List<IndexSchema> indexes) {
    private static final TableConstraints NONE = new TableConstraints(List.of(), List.of(), List.of());

    public TableConstraints {
        checks = List.copyOf(checks);
        foreignKeys = List.copyOf(foreignKeys);
        indexes = List.copyOf(indexes);
    }

    public static TableConstraints none() {
        return NONE;
    }

    public TableConstraints withIndexes(List<IndexSchema> next) {
        return new TableConstraints(checks, foreignKeys, next);
    }
}
