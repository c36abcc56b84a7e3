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
import io.derive.engine.types.Collation;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The row-level rules of one table, compiled once per statement: type coercion, NOT NULL, CHECK,
 * and the uniqueness of the primary key and of every unique index (NULLs distinct). It only
 * finds violations; what a violation does is the conflict clause's business ({@code exec.dml.DmlExecutor}).
 * A CHECK that reads tables is not checked here: it is checked at commit, against the
 * transaction's final state ({@link DeferredRowChecks}), and no conflict clause applies to it.
 * A unique index linked to a covering materialized view is probed through that MV's backing
 * instead of its own entries (semantics §6); both find the same conflicts.
 */
public final class ConstraintChecker {

    /** A stored row that a new row collides with; {@code index} is null for the primary key. */
    public record Conflict(IndexSchema index, Object[] existing) {
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
    private final List<CheckConditions.Compiled> checks = new ArrayList<>();
    private final boolean checksAtCommit;
    private final List<UniqueIndex> uniqueIndexes = new ArrayList<>();

    /** @param probes the covering MVs that answer unique indexes, by index name */
    ConstraintChecker(TableSchema table, Map<String, MaterializedViewOperations.UniqueProbe> probes) {
        this.table = table;
        this.shape = table.storage().shape();
        this.keyOrder = shape.keyOrder();
        boolean reading = false;
        for (CheckConstraint c : table.constraints().checks()) {
            if (c.readsTables()) {
                reading = true;
            } else {
                checks.add(CheckConditions.rowLocal(table, c).compile());
            }
        }
        this.checksAtCommit = reading;
        for (IndexSchema index : table.constraints().indexes()) {
            if (index.unique()) {
                Predicate<Object[]> filter = IndexShapes.filter(table, index);
                MaterializedViewOperations.UniqueProbe probe = probes.get(index.name());
                uniqueIndexes.add(new UniqueIndex(index, filter == null ? row -> true : filter, probe,
                        probe == null ? null : valueOrder(index)));
            }
        }
    }

    TableSchema table() {
        return table;
    }

    /** Whether the table has CHECKs that read tables, so that every row written is checked again at commit. */
    boolean checksAtCommit() {
        return checksAtCommit;
    }

    /** The row with every value coerced to its column's type; an uncoercible value is an error naming the column. */
    public Object[] coerced(Object[] row) {
        Object[] stored = new Object[row.length];
        for (int i = 0; i < row.length; i++) {
            stored[i] = table.columns().get(i).type().coerce(row[i], table.columnLabel(i));
        }
        return stored;
    }

    /** For {@code or replace}: a NULL in a NOT NULL column with a default takes the default, as in SQLite. */
    public Object[] withDefaultsForNulls(Object[] row) {
        Object[] filled = row.clone();
        for (int i = 0; i < filled.length; i++) {
            ColumnSchema c = table.columns().get(i);
            if (filled[i] == null && c.notNull() && (c.defaultValue() != null || c.dynamicDefault() != null)) {
                filled[i] = c.type().coerce(c.currentDefault(), table.columnLabel(i));
            }
        }
        return filled;
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
     * The row-local CHECKs.
     *
     * @throws DeriveException {@code CHECK constraint failed: name} when a check is false (NULL passes)
     */
    public void checkChecks(Object[] row, Parameters parameters) {
        for (CheckConditions.Compiled c : checks) {
            if (c.rejects(row, parameters)) {
                throw violation("CHECK constraint failed: " + c.check().label());
            }
        }
    }

    /**
     * The stored rows (effective state of the connection) the row collides with: on the primary
     * key, then on each unique index in declaration order. The row at {@code ownKey} (the row's
     * own image before an update; null for an insert) never collides with it.
     */
    public List<Conflict> conflicts(TableConnection connection, Object[] row, Object[] ownKey) {
        List<Conflict> conflicts = new ArrayList<>();
        Object[] key = shape.keyOf(row);
        if (ownKey == null || keyOrder.compare(ownKey, key) != 0) {
            connection.get(key).ifPresent(existing -> conflicts.add(new Conflict(null, existing)));
        }
        for (UniqueIndex u : uniqueIndexes) {
            if (!u.covers().test(row)) {
                continue;
            }
            Object[] indexKey = indexKey(u.index(), row);
            if (indexKey == null) {
                continue;
            }
            for (Object[] existing : sharing(connection, u, row, indexKey)) {
                Object[] existingKey = shape.keyOf(existing);
                if ((ownKey == null || keyOrder.compare(ownKey, existingKey) != 0)
                        && keyOrder.compare(key, existingKey) != 0) {
                    conflicts.add(new Conflict(u.index(), existing));
                }
            }
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
