package io.derive.engine.mv;

import io.derive.engine.api.DeriveException;
import io.derive.engine.exec.ExpressionCompiler;
import io.derive.engine.exec.Parameters;
import io.derive.engine.plan.ExpressionBinder;
import io.derive.engine.plan.PlanNode;
import io.derive.engine.plan.Scope;
import io.derive.engine.schema.CheckConstraint;
import io.derive.engine.schema.ForeignKey;
import io.derive.engine.schema.IndexSchema;
import io.derive.engine.schema.Numeric;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.spi.BackingRowChange;
import io.derive.engine.spi.RowCursor;
import io.derive.engine.spi.TableConnection;
import io.derive.engine.txn.Transaction;

import java.util.List;
import java.util.Optional;

/**
 * Declared constraints of a maintained table are claims about its derived rows (semantics §6,
 * MV-017): every row a maintenance batch inserts or updates must pass the table's CHECKs, must not
 * collide on its declared UNIQUE indexes (checked against the contents after the whole batch, so a
 * value moving between keys in one batch succeeds; the per-row arm's batch is one source row, as
 * a plain table checks each row), and must reference an existing parent row
 * through its foreign keys while {@code pragma foreign_keys} is on. Deletes are never validated.
 * A violation fails the writing statement, attributed to the maintained table.
 */
final class DerivedRowValidation {
    private DerivedRowValidation() {
    }

    static void validate(Transaction txn, TableSchema mv, List<BackingRowChange> changes, boolean foreignKeys) {
        var constraints = mv.constraints();
        if (changes.isEmpty() || (constraints.checks().isEmpty() && constraints.indexes().isEmpty()
                && constraints.foreignKeys().isEmpty())) {
            return;
        }
        Scope scope = Scope.of(mv.name(), new PlanNode.TableScan(mv, List.of()).columns());
        String name = "row derived into maintained table '" + mv.qualifiedName() + "'";
        for (CheckConstraint check : constraints.checks()) {
            var condition = ExpressionCompiler.compile(ExpressionBinder.bind(check.condition(), scope));
            for (BackingRowChange change : changes) {
                if (change.after() != null) {
                    Object value = condition.eval(change.after(), Parameters.none());
                    if (Boolean.FALSE.equals(value == null ? null : Numeric.truth(value))) {
                        throw violation(name + " violates its declared constraint " + check.label());
                    }
                }
            }
        }
        TableConnection connection = txn.connection(mv);
        for (IndexSchema index : constraints.indexes()) {
            if (index.unique()) {
                for (BackingRowChange change : changes) {
                    if (change.after() != null && collides(connection, index, change.after())) {
                        throw violation(name + " collides on its declared UNIQUE constraint " + index.name());
                    }
                }
            }
        }
        if (foreignKeys) {
            for (ForeignKey fk : constraints.foreignKeys()) {
                for (BackingRowChange change : changes) {
                    if (change.after() != null && !parentExists(txn, fk, change.after())) {
                        String parent = (fk.parentSchema() == null ? "main" : fk.parentSchema()) + "." + fk.parentTable();
                        throw violation(name + " references a missing '" + parent + "'");
                    }
                }
            }
        }
    }

    /** Whether another row holds the same non-NULL index key (NULLs are distinct, as in SQLite). */
    private static boolean collides(TableConnection connection, IndexSchema index, Object[] row) {
        Object[] key = new Object[index.columns().size()];
        for (int i = 0; i < key.length; i++) {
            key[i] = row[index.columns().get(i).column()];
            if (key[i] == null) {
                return false;
            }
        }
        int found = 0;
        try (RowCursor rows = connection.scanIndex(index.name(), key)) {
            while (rows.hasNext()) {
                rows.next();
                found++;
            }
        }
        return found > 1;
    }

    /** MATCH SIMPLE: a NULL in the child key references nothing and passes. */
    private static boolean parentExists(Transaction txn, ForeignKey fk, Object[] row) {
        Object[] key = new Object[fk.columns().size()];
        for (int i = 0; i < key.length; i++) {
            key[i] = row[fk.columns().get(i)];
            if (key[i] == null) {
                return true;
            }
        }
        Optional<TableSchema> parent = txn.catalog().table(fk.parentSchema(), fk.parentTable());
        if (parent.isEmpty()) {
            return false;
        }
        TableSchema p = parent.get();
        List<String> parentColumns = fk.parentColumns().isEmpty()
                ? p.primaryKey().stream().map(k -> p.columns().get(k.column()).name()).toList() : fk.parentColumns();
        int[] positions = new int[key.length];
        boolean byPrimaryKey = positions.length == p.primaryKey().size();
        for (int i = 0; i < key.length; i++) {
            positions[i] = p.columnIndex(parentColumns.get(i)).orElse(-1);
            if (positions[i] < 0) {
                return false;
            }
            byPrimaryKey &= p.primaryKey().get(Math.min(i, p.primaryKey().size() - 1)).column() == positions[i];
        }
        if (byPrimaryKey) {
            return txn.connection(p).get(key).isPresent();
        }
        try (RowCursor rows = txn.connection(p).scan(new Object[0], false)) {
            while (rows.hasNext()) {
                Object[] candidate = rows.next();
                boolean match = true;
                for (int i = 0; i < positions.length && match; i++) {
                    match = io.derive.engine.schema.ValueOrder.compare(candidate[positions[i]], key[i],
                            p.columns().get(positions[i]).collation()) == 0;
                }
                if (match) {
                    return true;
                }
            }
        }
        return false;
    }

    private static DeriveException violation(String message) {
        return new DeriveException(DeriveException.CONSTRAINT, message);
    }
}
