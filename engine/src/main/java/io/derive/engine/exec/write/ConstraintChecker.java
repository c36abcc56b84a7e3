package io.derive.engine.exec.write;

import io.derive.engine.api.DeriveException;
import io.derive.engine.exec.context.MaterializedViewOperations;
import io.derive.engine.exec.expr.Parameters;
import io.derive.engine.schema.CheckConstraint;
import io.derive.engine.schema.ColumnSchema;
import io.derive.engine.schema.IndexSchema;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.spi.KeyOrder;
import io.derive.engine.spi.RowCursor;
import io.derive.engine.spi.TableConnection;
import io.derive.engine.spi.TableShape;
import io.derive.engine.sql.ast.Statement.ConflictAction;
import io.derive.engine.sql.ast.Statement.RowOperation;
import io.derive.engine.types.Collation;

import io.derive.engine.txn.LockMode;
import io.derive.engine.txn.Transaction;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The row-level rules of one table, compiled once per statement: type coercion, NOT NULL, CHECK
 * (those of the operation being written, over its row images), and the uniqueness of the primary
 * key and of every unique index (NULLs distinct). It finds violations and says how each is
 * resolved (the statement's {@code or …}, else the constraint's own {@code on conflict …}, else
 * abort, as in SQLite); carrying the resolution out is {@code exec.dml.DmlExecutor}'s business.
 * A CHECK that reads tables is not checked here: it is checked at commit, against the
 * transaction's final state ({@link DeferredRowChecks}), and no conflict clause applies to it.
 * A unique index linked to a covering materialized view is probed through that MV's backing
 * instead of its own entries (semantics §6); both find the same conflicts.
 */
public final class ConstraintChecker {

    /** A stored row that a new row collides with; {@code index} is null for the primary key. */
    public record Conflict(IndexSchema index, Object[] existing) {
    }

    /** A NOT NULL or CHECK violation and how it is resolved. */
    public record Violation(DeriveException error, ConflictAction resolution) {
    }

    /**
     * @param probe the covering MV answering this index's checks; null when its own entries do
     * @param order with a probe, the index key's order, whose collations decide which values are equal
     */
    private record UniqueIndex(IndexSchema index, Predicate<Object[]> covers,
                               MaterializedViewOperations.UniqueProbe probe, KeyOrder order) {
    }

    private final TableSchema table;
    private final TableShape shape;
    private final KeyOrder keyOrder;
    /** The row-local checks per operation; an operation without any has no entry. */
    private final Map<RowOperation, List<CheckConditions.Compiled>> checks = new EnumMap<>(RowOperation.class);
    private final Set<RowOperation> checksAtCommit = EnumSet.noneOf(RowOperation.class);
    private final List<UniqueIndex> uniqueIndexes = new ArrayList<>();
    private final boolean integerKey;
    private final Transaction txn;

    /**
     * @param probes the covering MVs that answer unique indexes, by index name
     * @param txn    the writing transaction, which locks each key and value before checking it is free
     */
    ConstraintChecker(TableSchema table, Map<String, MaterializedViewOperations.UniqueProbe> probes, Transaction txn) {
        this.txn = txn;
        this.table = table;
        this.shape = table.storage().shape();
        this.keyOrder = shape.keyOrder();
        for (CheckConstraint c : table.constraints().checks()) {
            if (c.readsTables()) {
                checksAtCommit.addAll(c.operations());
            } else {
                CheckConditions.Compiled compiled = CheckConditions.rowLocal(table, c).compile();
                c.operations().forEach(operation -> checks.computeIfAbsent(operation, o -> new ArrayList<>()).add(compiled));
            }
        }
        for (IndexSchema index : table.constraints().indexes()) {
            if (index.unique()) {
                Predicate<Object[]> filter = IndexShapes.filter(table, index);
                MaterializedViewOperations.UniqueProbe probe = probes.get(index.name());
                // SQLite checks a table's unique indexes latest declared first
                uniqueIndexes.add(0, new UniqueIndex(index, filter == null ? row -> true : filter, probe,
                        probe == null ? null : valueOrder(index)));
            }
        }
        // SQLite's INTEGER PRIMARY KEY is the row id, checked before every index; any other
        // primary key is an index declared before the table's UNIQUE constraints
        this.integerKey = !table.isBag() && table.rowIdColumn().isPresent();
    }

    TableSchema table() {
        return table;
    }

    /** Whether the table has CHECKs on {@code operation} that read tables, so that a row it writes is checked at commit. */
    boolean checksAtCommit(RowOperation operation) {
        return checksAtCommit.contains(operation);
    }

    /**
     * How a violation of a constraint is resolved: by the statement's {@code or …} when it has
     * one, else by the constraint's own {@code on conflict …}, else abort.
     */
    public static ConflictAction resolution(ConflictAction statement, ConflictAction constraint) {
        return statement != null ? statement : constraint != null ? constraint : ConflictAction.ABORT;
    }

    /** The row with every value coerced to its column's type; an uncoercible value is an error naming the column. */
    public Object[] coerced(Object[] row) {
        Object[] stored = new Object[row.length];
        for (int i = 0; i < row.length; i++) {
            stored[i] = table.columns().get(i).type().coerce(row[i], table.columnLabel(i));
        }
        return stored;
    }

    /**
     * A NULL in a NOT NULL column whose violation resolves to replace takes the column's default,
     * as in SQLite; without a default (or with a NULL one) the violation stays, and aborts.
     *
     * @param statement the statement's {@code or …}, null when it has none
     */
    public Object[] withDefaultsForNulls(Object[] row, ConflictAction statement) {
        Object[] filled = row;
        for (int i = 0; i < row.length; i++) {
            ColumnSchema c = table.columns().get(i);
            if (row[i] == null && c.notNull() && (c.defaultValue() != null || c.dynamicDefault() != null)
                    && resolution(statement, c.notNullConflict()) == ConflictAction.REPLACE) {
                filled = filled == row ? row.clone() : filled;
                filled[i] = c.type().coerce(c.currentDefault(), table.columnLabel(i));
            }
        }
        return filled;
    }

    /**
     * The first NOT NULL column (in column order, as SQLite checks them) holding NULL, and how its
     * violation resolves; null when there is none. A replace left here had no default: it aborts.
     */
    public Violation notNullViolation(Object[] row, ConflictAction statement) {
        for (int i = 0; i < row.length; i++) {
            ColumnSchema c = table.columns().get(i);
            if (row[i] == null && c.notNull()) {
                ConflictAction resolution = resolution(statement, c.notNullConflict());
                return new Violation(violation("NOT NULL constraint failed: " + table.columnLabel(i)),
                        resolution == ConflictAction.REPLACE ? ConflictAction.ABORT : resolution);
            }
        }
        return null;
    }

    /**
     * The first row-local CHECK on {@code operation} that the write from {@code before} to
     * {@code after} fails, and how it resolves: by the statement's {@code or …} alone, replace
     * meaning abort (a CHECK's own conflict clause is ignored, as in SQLite); null when all pass.
     */
    public Violation checkViolation(RowOperation operation, Object[] before, Object[] after, ConflictAction statement,
                                    Parameters parameters) {
        List<CheckConditions.Compiled> compiled = checks.get(operation);
        if (compiled == null) {
            return null;
        }
        for (CheckConditions.Compiled c : compiled) {
            if (c.rejects(before, after, parameters)) {
                ConflictAction resolution = statement != null ? statement : ConflictAction.ABORT;
                return new Violation(violation("CHECK constraint failed: " + c.check().label()),
                        resolution == ConflictAction.REPLACE ? ConflictAction.ABORT : resolution);
            }
        }
        return null;
    }

    /** @throws DeriveException {@code NOT NULL constraint failed: t.x} */
    public void checkNotNull(Object[] row) {
        for (int i = 0; i < row.length; i++) {
            if (row[i] == null && table.columns().get(i).notNull()) {
                throw violation("NOT NULL constraint failed: " + table.columnLabel(i));
            }
        }
    }

    /**
     * The row-local CHECKs on {@code operation}, for a write from {@code before} (null for an
     * insert) to {@code after} (null for a delete).
     *
     * @throws DeriveException {@code CHECK constraint failed: name} when a check is false (NULL passes)
     */
    public void checkChecks(RowOperation operation, Object[] before, Object[] after, Parameters parameters) {
        Violation failed = checkViolation(operation, before, after, null, parameters);
        if (failed != null) {
            throw failed.error();
        }
    }

    /** Whether the table has row-local CHECKs on {@code operation}. */
    public boolean checks(RowOperation operation) {
        return checks.containsKey(operation);
    }

    /**
     * The stored rows (effective state of the connection) the row collides with, in the order
     * SQLite checks them when the statement's {@code or …} is {@code statement}: an integer
     * primary key first, then the unique indexes, the later declared first, then any other
     * primary key — except that every constraint whose collision resolves to replace comes after
     * all those that do not. The row at {@code ownKey} (the row's own image before an update;
     * null for an insert) never collides with it.
     */
    public List<Conflict> conflicts(TableConnection connection, Object[] row, Object[] ownKey, ConflictAction statement) {
        List<Conflict> found = conflicts(connection, row, ownKey);
        if (found.size() < 2) {
            return found;
        }
        List<Conflict> ordered = new ArrayList<>(found.size());
        for (boolean replacing : new boolean[] {false, true}) {
            for (Conflict c : found) {
                if ((resolution(statement, c) == ConflictAction.REPLACE) == replacing) {
                    ordered.add(c);
                }
            }
        }
        return ordered;
    }

    /** How a collision on this conflict's constraint resolves. */
    public ConflictAction resolution(ConflictAction statement, Conflict conflict) {
        return resolution(statement, conflict.index() == null ? table.constraints().primaryKeyConflict()
                : conflict.index().conflict());
    }

    /** The collisions in SQLite's order of checking, before the replacing ones are moved last. */
    private List<Conflict> conflicts(TableConnection connection, Object[] row, Object[] ownKey) {
        List<Conflict> conflicts = new ArrayList<>();
        Object[] key = shape.keyOf(row);
        Conflict onKey = null;
        if (ownKey == null || keyOrder.compare(ownKey, key) != 0) {
            // Locked first: a row another transaction is deleting meanwhile is waited for, not a conflict.
            RowLocks.row(txn, table.storage(), key, LockMode.EXCLUSIVE);
            onKey = connection.get(key).map(existing -> new Conflict(null, existing)).orElse(null);
        }
        if (onKey != null && integerKey) {
            conflicts.add(onKey);
        }
        for (UniqueIndex u : uniqueIndexes) {
            if (!u.covers().test(row)) {
                continue;
            }
            Object[] indexKey = indexKey(u.index(), row);
            if (indexKey == null) {
                continue;
            }
            RowLocks.uniqueValue(txn, table, u.index(), indexKey, LockMode.EXCLUSIVE);
            for (Object[] existing : sharing(connection, u, row, indexKey)) {
                Object[] existingKey = shape.keyOf(existing);
                if ((ownKey == null || keyOrder.compare(ownKey, existingKey) != 0)
                        && keyOrder.compare(key, existingKey) != 0) {
                    conflicts.add(new Conflict(u.index(), existing));
                }
            }
        }
        if (onKey != null && !integerKey) {
            conflicts.add(onKey);
        }
        return conflicts;
    }

    /** The stored rows with this key of the index, found by its own entries or by its covering MV. */
    private List<Object[]> sharing(TableConnection connection, UniqueIndex u, Object[] row, Object[] indexKey) {
        List<Object[]> rows = new ArrayList<>();
        if (u.probe() == null) {
            try (RowCursor same = connection.scanIndex(u.index().name(), indexKey)) {
                while (same.hasNext()) {
                    rows.add(same.next());
                }
            }
            return rows;
        }
        // The MV's rows are candidates only: each is checked against the live source row as the
        // index would hold it, so a row changed or gone since is no false conflict.
        for (Object[] candidate : u.probe().candidateKeys(row)) {
            Optional<Object[]> live = connection.get(candidate);
            if (live.isPresent() && u.covers().test(live.get())) {
                Object[] liveKey = indexKey(u.index(), live.get());
                if (liveKey != null && u.order().compare(liveKey, indexKey) == 0) {
                    rows.add(live.get());
                }
            }
        }
        return rows;
    }

    /** Compares index keys as the index does: under each column's collation (direction does not matter for equality). */
    private static KeyOrder valueOrder(IndexSchema index) {
        List<Collation> collations = new ArrayList<>();
        List<Boolean> descending = new ArrayList<>();
        for (IndexSchema.IndexColumn c : index.columns()) {
            collations.add(c.collation());
            descending.add(false);
        }
        return new KeyOrder(collations, descending);
    }

    /**
     * Locks, exclusive, every unique-index value {@code row} holds, so that no other transaction
     * stores or frees the same value until this one ends: called for the image a write stores and
     * for the one it replaces.
     */
    void lockUniqueValues(Object[] row) {
        for (UniqueIndex u : uniqueIndexes) {
            Object[] indexKey = u.covers().test(row) ? indexKey(u.index(), row) : null;
            if (indexKey != null) {
                RowLocks.uniqueValue(txn, table, u.index(), indexKey, LockMode.EXCLUSIVE);
            }
        }
    }

    /** The index key of a row, or null when a component is NULL (NULLs are distinct in UNIQUE). */
    private static Object[] indexKey(IndexSchema index, Object[] row) {
        Object[] key = new Object[index.columns().size()];
        for (int i = 0; i < key.length; i++) {
            key[i] = row[index.columns().get(i).column()];
            if (key[i] == null) {
                return null;
            }
        }
        return key;
    }

    /** {@code UNIQUE constraint failed: t.a, t.b} for the constraint a conflict is on. */
    public DeriveException uniqueViolation(Conflict conflict) {
        StringBuilder columns = new StringBuilder();
        if (conflict.index() == null) {
            for (var part : table.primaryKey()) {
                columns.append(columns.isEmpty() ? "" : ", ").append(table.columnLabel(part.column()));
            }
        } else {
            for (IndexSchema.IndexColumn c : conflict.index().columns()) {
                columns.append(columns.isEmpty() ? "" : ", ").append(table.columnLabel(c.column()));
            }
        }
        return violation("UNIQUE constraint failed: " + columns);
    }

    public static DeriveException violation(String message) {
        return new DeriveException(DeriveException.CONSTRAINT, message);
    }
}
