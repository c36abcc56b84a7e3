package io.derive.engine.mv;

import io.derive.engine.api.DeriveException;
import io.derive.engine.exec.context.ExecutionContext;
import io.derive.engine.exec.expr.Parameters;
import io.derive.engine.exec.write.CheckConditions;
import io.derive.engine.exec.write.DerivedRowViolation;
import io.derive.engine.exec.write.ForeignKeyParent;
import io.derive.engine.exec.write.RowLocks;
import io.derive.engine.schema.Catalog;
import io.derive.engine.schema.CheckConstraint;
import io.derive.engine.schema.Derivation;
import io.derive.engine.schema.ForeignKey;
import io.derive.engine.schema.IndexSchema;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.schema.ViewSchema;
import io.derive.engine.spi.RowCursor;
import io.derive.engine.spi.TableConnection;
import io.derive.engine.sql.ast.AstWalk;
import io.derive.engine.sql.ast.QualifiedName;
import io.derive.engine.sql.ast.Select;
import io.derive.engine.txn.LockMode;
import io.derive.engine.txn.Transaction;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The declared constraints of one maintained table, compiled for its derived rows (semantics §6,
 * MV-017): its row-local CHECKs (those on insert or update, both alike, evaluated as for an
 * insert: whether maintenance realizes a change as an insert or an update is an artifact of key
 * movement), its declared UNIQUE indexes, its foreign keys with their parent
 * keys resolved, and its CHECKs that read tables, bound against the catalog. Every violation is
 * attributed to the maintained table, since the failing statement wrote some other table:
 * <ul>
 * <li>{@code CHECK constraint failed: positive (n > 0) — row derived into maintained table
 *     'main.m' violates its declared constraint}</li>
 * <li>{@code FOREIGN KEY constraint failed: fk — row derived into maintained table 'main.m'
 *     references a missing 'main.p'}</li>
 * <li>{@code UNIQUE constraint failed: one_v (v) — row derived into maintained table 'main.m'
 *     collides on its declared UNIQUE constraint (key: 'a')}</li>
 * </ul>
 *
 * <p>It tracks its dependencies (MV-018): the table as it was compiled, and the catalog entry of
 * every table it reads — each foreign key's parent and each table or view a CHECK's subquery
 * names (and what such a view reads), or their absence. When one of them is renamed, dropped or re-created it no longer {@link #fits}
 * and is compiled again (the derivation is untouched: nothing goes stale). A dropped parent
 * compiles to "no parent": a non-NULL reference then fails, a NULL one passes (MATCH SIMPLE). A
 * CHECK reading a table that is gone cannot compile: the validator is then <em>broken</em>, and
 * every derived row fails with the binder's sited {@code no such table} error, until the table is
 * back and the validator compiles again.
 */
final class DerivedRowValidator implements Derivation.Validator {

    /** A catalog entry the validator was compiled against: the table or view the name found, or null. */
    private record Dependency(String schema, String name, Object found) {
    }

    /** A foreign key and its parent key; {@code parent} null when the parent table is missing. */
    private record Reference(ForeignKey fk, ForeignKeyParent parent, String parentName) {
    }

    private final TableSchema mv;
    private final List<Dependency> dependencies = new ArrayList<>();
    private final List<CheckConditions.Bound> rowLocalChecks = new ArrayList<>();
    private final List<CheckConditions.Bound> readingChecks = new ArrayList<>();
    private final List<IndexSchema> uniqueIndexes = new ArrayList<>();
    private final List<Reference> references = new ArrayList<>();
    private DeriveException broken;

    private DerivedRowValidator(TableSchema mv) {
        this.mv = mv;
    }

    /** The validator of {@code mv}'s declared constraints, against the tables {@code catalog} names. */
    static DerivedRowValidator compile(TableSchema mv, Catalog catalog) {
        DerivedRowValidator v = new DerivedRowValidator(mv);
        try {
            for (CheckConstraint check : mv.constraints().checks()) {
                if (!check.appliesToDerivedRows()) {
                    continue; // a check on delete alone: a derived row is never a user's delete
                }
                if (check.readsTables()) {
                    for (QualifiedName name : CheckConditions.namesRead(check)) {
                        v.depend(catalog, name.schema(), name.name());
                    }
                    v.readingChecks.add(v.compileReading(check, catalog));
                } else {
                    v.rowLocalChecks.add(CheckConditions.rowLocal(mv, check));
                }
            }
            for (IndexSchema index : mv.constraints().indexes()) {
                if (index.unique()) {
                    v.uniqueIndexes.add(index);
                }
            }
            for (ForeignKey fk : mv.constraints().foreignKeys()) {
                Optional<TableSchema> parent = catalog.table(fk.parentSchema(), fk.parentTable());
                v.depend(catalog, fk.parentSchema(), fk.parentTable());
                v.references.add(new Reference(fk, parent.map(p -> ForeignKeyParent.of(mv, fk, p)).orElse(null),
                        parent.map(TableSchema::qualifiedName).orElse((fk.parentSchema() == null ? "main"
                                : fk.parentSchema()) + "." + fk.parentTable())));
            }
        } catch (DeriveException e) {
            v.broken = e;
        }
        return v;
    }

    private CheckConditions.Bound compileReading(CheckConstraint check, Catalog catalog) {
        try {
            return CheckConditions.reading(mv, check, catalog);
        } catch (DeriveException e) {
            throw e.explained(" (read by CHECK constraint " + check.label() + " of maintained table '"
                    + mv.qualifiedName() + "')");
        }
    }

    /** Records what {@code name} finds now; for a view, also what its body reads, which binding expands. */
    private void depend(Catalog catalog, String schema, String name) {
        Object found = lookup(catalog, schema, name);
        dependencies.add(new Dependency(schema, name, found));
        if (found instanceof ViewSchema view && dependencies.stream().filter(d -> d.found() == view).count() == 1) {
            for (Select.NamedTable t : AstWalk.nodes(view.body(), Select.NamedTable.class)) {
                depend(catalog, t.name().schema(), t.name().name());
            }
        }
    }

    private static Object lookup(Catalog catalog, String schema, String name) {
        Optional<TableSchema> table = catalog.table(schema, name);
        return table.isPresent() ? table.get() : catalog.view(schema, name).orElse(null);
    }

    @Override
    public boolean fits(TableSchema table, Catalog catalog) {
        if (table != mv) {
            return false;
        }
        for (Dependency d : dependencies) {
            if (lookup(catalog, d.schema(), d.name()) != d.found()) {
                return false;
            }
        }
        return true;
    }

    /** Whether some constraint waits for commit: a CHECK reading tables, or a foreign key while they are enforced. */
    boolean defersSome(boolean foreignKeys) {
        return !readingChecks.isEmpty() || foreignKeys && !references.isEmpty();
    }

    boolean hasUniqueIndexes() {
        return !uniqueIndexes.isEmpty();
    }

    /** @throws DeriveException the sited error that kept a constraint from compiling */
    void requireCompiled() {
        if (broken != null) {
            throw broken;
        }
    }

    /** The row-local CHECKs, which never wait for commit. */
    void checkRowLocal(List<Object[]> rows, Parameters parameters) {
        check(rowLocalChecks, rows, parameters);
    }

    /**
     * The declared UNIQUE indexes of {@code mv}, against the backing's contents after the whole
     * batch (NULLs distinct). Each value is locked exclusive before it is looked for, so that two
     * transactions deriving one value under different keys cannot both commit: the second waits,
     * then runs again on a snapshot that holds the first.
     */
    void checkUnique(Transaction txn, TableSchema mv, List<Object[]> rows) {
        TableConnection connection = txn.connection(mv);
        for (IndexSchema index : uniqueIndexes) {
            for (Object[] row : rows) {
                Object[] key = indexKey(index, row);
                if (key != null) {
                    RowLocks.uniqueValue(txn, mv, index, key, LockMode.EXCLUSIVE);
                }
                if (key != null && collides(connection, index, key)) {
                    throw violation("UNIQUE constraint failed: " + index.name() + " (" + columns(index) + ") — "
                            + derived() + " collides on its declared UNIQUE constraint (key: " + values(key) + ")");
                }
            }
        }
    }

    /**
     * The constraints that wait for commit in steady state: the foreign keys (only when
     * {@code foreignKeys}, the pragma as it is now) and the CHECKs that read tables, which read
     * the transaction's state through {@code context}.
     */
    void checkDeferred(ExecutionContext context, List<Object[]> rows, boolean foreignKeys) {
        if (foreignKeys) {
            for (Reference ref : references) {
                for (Object[] row : rows) {
                    if (!parentExists(context, ref, row)) {
                        throw violation("FOREIGN KEY constraint failed" + (ref.fk().name() == null ? ""
                                : ": " + ref.fk().name()) + " — " + derived() + " references a missing '"
                                + ref.parentName() + "'");
                    }
                }
            }
        }
        check(readingChecks, rows, context.parameters());
    }

    /** Compiles the conditions for this one use, then checks each row. */
    private void check(List<CheckConditions.Bound> checks, List<Object[]> rows, Parameters parameters) {
        for (CheckConditions.Bound bound : checks) {
            CheckConditions.Compiled c = bound.compile();
            for (Object[] row : rows) {
                if (c.rejects(row, parameters)) {
                    throw checkViolation(c.check());
                }
            }
        }
    }

    /** MATCH SIMPLE: a NULL in the child key references nothing and passes. */
    private static boolean parentExists(ExecutionContext context, Reference ref, Object[] row) {
        List<Integer> columns = ref.fk().columns();
        Object[] key = new Object[columns.size()];
        for (int i = 0; i < key.length; i++) {
            key[i] = row[columns.get(i)];
            if (key[i] == null) {
                return true;
            }
        }
        if (ref.parent() == null) {
            return false;
        }
        // shared until the end, so that the parent cannot be deleted by a transaction this one does not see
        ref.parent().lockParent(context.transaction(), key);
        return ref.parent().exists(context.transaction().connection(ref.parent().parent()), key);
    }

    /** Whether another row holds the same index key. */
    private static boolean collides(TableConnection connection, IndexSchema index, Object[] key) {
        int found = 0;
        try (RowCursor rows = connection.scanIndex(index.name(), key)) {
            while (rows.hasNext() && found < 2) {
                rows.next();
                found++;
            }
        }
        return found > 1;
    }

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

    private String columns(IndexSchema index) {
        List<String> names = new ArrayList<>();
        index.columns().forEach(c -> names.add(mv.columns().get(c.column()).name()));
        return String.join(", ", names);
    }

    private static String values(Object[] key) {
        List<String> shown = new ArrayList<>();
        for (Object v : key) {
            shown.add(v instanceof String s ? "'" + s.replace("'", "''") + "'" : String.valueOf(v));
        }
        return String.join(", ", shown);
    }

    private DeriveException checkViolation(CheckConstraint check) {
        String constraint = check.name() == null ? "(" + check.sql() + ")" : check.name() + " (" + check.sql() + ")";
        return violation("CHECK constraint failed: " + constraint + " — " + derived() + " violates its declared constraint");
    }

    private String derived() {
        return "row derived into maintained table '" + mv.qualifiedName() + "'";
    }

    private static DeriveException violation(String message) {
        return new DerivedRowViolation(message);
    }
}
