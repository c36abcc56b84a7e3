package io.derive.engine.schema;

import io.derive.engine.sql.ast.Statement.ConflictAction;

import java.util.List;

/**
 * The rules a table's rows obey beyond column types and NOT NULL, and the secondary indexes that
 * serve them: CHECK constraints, foreign keys, and indexes (those carrying UNIQUE constraints
 * and those created by {@code create index}).
 *
 * @param primaryKeyConflict the {@code on conflict …} of the primary key: how a key collision is
 *                           resolved when the statement says no {@code or …}; null for abort
 */
public record TableConstraints(List<CheckConstraint> checks, List<ForeignKey> foreignKeys, List<IndexSchema> indexes,
                               ConflictAction primaryKeyConflict) {
    private static final TableConstraints NONE = new TableConstraints(List.of(), List.of(), List.of());

    public TableConstraints {
        checks = List.copyOf(checks);
        foreignKeys = List.copyOf(foreignKeys);
        indexes = List.copyOf(indexes);
    }

    /** Constraints whose primary-key collisions abort. */
    public TableConstraints(List<CheckConstraint> checks, List<ForeignKey> foreignKeys, List<IndexSchema> indexes) {
        this(checks, foreignKeys, indexes, null);
    }

    public static TableConstraints none() {
        return NONE;
    }

    public TableConstraints withIndexes(List<IndexSchema> next) {
        return new TableConstraints(checks, foreignKeys, next, primaryKeyConflict);
    }

    /** Other checks, foreign keys and indexes under the same primary key. */
    public TableConstraints with(List<CheckConstraint> nextChecks, List<ForeignKey> nextKeys, List<IndexSchema> nextIndexes) {
        return new TableConstraints(nextChecks, nextKeys, nextIndexes, primaryKeyConflict);
    }
}
