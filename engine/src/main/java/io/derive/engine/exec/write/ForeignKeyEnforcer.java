package io.derive.engine.exec.write;

import io.derive.engine.api.DeriveException;
import io.derive.engine.exec.context.ExecutionContext;
import io.derive.engine.schema.Catalog;
import io.derive.engine.schema.ColumnSchema;
import io.derive.engine.schema.ForeignKey;
import io.derive.engine.schema.IndexSchema;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.spi.RowCursor;
import io.derive.engine.spi.TableConnection;
import io.derive.engine.spi.TableShape;
import io.derive.engine.types.Collation;
import io.derive.engine.types.ValueOrder;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * FOREIGN KEY enforcement for one statement, when {@code pragma foreign_keys} is on. Child side:
 * every child row written is remembered and, at the end of the statement, must reference an
 * existing parent row (MATCH SIMPLE: a child key with a NULL references nothing), so rows of one
 * statement may reference each other in any order, as in SQLite. Parent side: when a referenced
 * parent row is deleted or its key changes, each referencing foreign key's action runs at once:
 * RESTRICT fails ({@code FOREIGN KEY constraint failed: DELETE on 'p' violates RESTRICT from 'c'}),
 * CASCADE / SET NULL / SET DEFAULT write the child rows (through the {@link RowWriter}, so their
 * own constraints, cascades and MV maintenance apply), NO ACTION leaves the children to the
 * end-of-statement check, which names the parent change when they are left without a parent.
 * The rows of a maintained child are never written by an action: they wait for the derived-row
 * checks at commit.
 */
public final class ForeignKeyEnforcer {
    private static final Object[] WHOLE_TABLE = new Object[0];
    private static final String FAILED = "FOREIGN KEY constraint failed";

    /** A child row to verify at statement end, by its physical key, and what its failure reports. */
    private record PendingCheck(TableSchema child, ForeignKey fk, Object[] key, String failure) {
    }

    /** A foreign key of a child table that references a given parent. */
    private record Reference(TableSchema child, ForeignKey fk, ForeignKeyParent parentKey) {
    }

    private final ExecutionContext context;
    private final RowWriter writer;
    private final List<PendingCheck> pending = new ArrayList<>();
    /** Sized for the few foreign keys a statement meets: the default would allocate a 64-slot table per statement. */
    private final Map<ForeignKey, ForeignKeyParent> parentKeys = new IdentityHashMap<>(4);
    private final Map<String, List<Reference>> references = new HashMap<>();

    public ForeignKeyEnforcer(ExecutionContext context, RowWriter writer) {
        this.context = context;
        this.writer = writer;
    }

    private boolean enabled() {
        return context.pragmas().foreignKeys();
    }

    /**
     * A row was stored in {@code child} ({@code before} is its previous image, null for an
     * insert): the references it changed are checked at statement end.
     */
    public void childWritten(TableSchema child, Object[] before, Object[] row) {
        if (!enabled()) {
            return;
        }
        for (ForeignKey fk : child.constraints().foreignKeys()) {
            Object[] values = childValues(fk, row);
            if (values != null && (before == null || !sameValues(fk, before, row))) {
                pending.add(new PendingCheck(child, fk, child.storage().shape().keyOf(row), FAILED));
            }
        }
    }

    /** A row of {@code parent} was deleted: the ON DELETE actions of the keys referencing it. */
    void parentDeleted(TableSchema parent, Object[] before) {
        if (!enabled()) {
            return;
        }
        for (Reference ref : referencing(parent)) {
            Object[] key = parentValues(ref, before);
            if (key != null) {
                act(ref, ref.fk().onDelete(), children(ref, key), null);
            }
        }
    }

    /** A row of {@code parent} changed: the ON UPDATE actions of the keys whose referenced values changed. */
    void parentChanged(TableSchema parent, Object[] before, Object[] after) {
        if (!enabled()) {
            return;
        }
        for (Reference ref : referencing(parent)) {
            Object[] oldKey = parentValues(ref, before);
            if (oldKey == null) {
                continue;
            }
            Object[] newKey = parentValuesOrNulls(ref, after);
            if (!ValueOrder.identicalRows(oldKey, newKey)) {
                act(ref, ref.fk().onUpdate(), children(ref, oldKey), newKey);
            }
        }
    }

    /** Fails unless every child row written by the statement still references an existing parent. */
    public void verify() {
        for (int i = 0; i < pending.size(); i++) {
            PendingCheck p = pending.get(i);
            Optional<Object[]> row = connection(p.child()).get(p.key());
            if (row.isEmpty()) {
                continue;
            }
            Object[] values = childValues(p.fk(), row.get());
            if (values != null && !parentExists(p.child(), p.fk(), values)) {
                throw ConstraintChecker.violation(p.failure());
            }
        }
        pending.clear();
    }

    private void act(Reference ref, ForeignKey.Action action, List<Object[]> children, Object[] newKey) {
        if (children.isEmpty()) {
            return;
        }
        TableSchema child = ref.child();
        TableConnection connection = connection(child);
        String change = (newKey == null ? "DELETE" : "UPDATE") + " on '" + ref.parentKey().parent().name() + "'";
        if (action == ForeignKey.Action.RESTRICT) {
            throw ConstraintChecker.violation(FAILED + ": " + change + " violates RESTRICT from '" + child.name() + "'");
        }
        if (child.isMaintained()) {
            // its rows are its body's: no action may write them, they must find a parent at commit
            for (Object[] found : children) {
                DeferredRowChecks.derived(context, child, found);
            }
            return;
        }
        for (Object[] found : children) {
            Object[] key = child.storage().shape().keyOf(found);
            if (action == ForeignKey.Action.NO_ACTION) {
                pending.add(new PendingCheck(child, ref.fk(), key, FAILED + ": " + change + " leaves rows of '"
                        + child.name() + "' referencing a missing parent (NO ACTION)"));
                continue;
            }
            // an earlier action of this statement may have changed or removed the row
            Optional<Object[]> current = connection.get(key);
            if (current.isEmpty()) {
                continue;
            }
            if (action == ForeignKey.Action.CASCADE && newKey == null) {
                writer.delete(child, current.get());
                continue;
            }
            Object[] after = current.get().clone();
            List<Integer> columns = ref.fk().columns();
            for (int i = 0; i < columns.size(); i++) {
                int c = columns.get(i);
                ColumnSchema column = child.columns().get(c);
                after[c] = switch (action) {
                    case CASCADE -> newKey[i];
                    case SET_NULL -> null;
                    default -> column.currentDefault();
                };
            }
            writer.checkedUpdate(child, current.get(), after);
        }
    }

    /** The child rows whose key equals {@code parentKey} under the parent columns' collations. */
    private List<Object[]> children(Reference ref, Object[] parentKey) {
        TableSchema child = ref.child();
        List<Integer> columns = ref.fk().columns();
        Collation[] collations = new Collation[columns.size()];
        for (int i = 0; i < collations.length; i++) {
            collations[i] = ref.parentKey().parent().columns().get(ref.parentKey().columns()[i]).collation();
        }
        List<Object[]> found = new ArrayList<>();
        try (RowCursor candidates = candidates(child, columns, collations, parentKey)) {
            while (candidates.hasNext()) {
                Object[] row = candidates.next();
                boolean matches = true;
                for (int i = 0; i < collations.length && matches; i++) {
                    Object v = row[columns.get(i)];
                    matches = v != null && ValueOrder.compare(v, parentKey[i], collations[i]) == 0;
                }
                if (matches) {
                    found.add(row);
                }
            }
        }
        return found;
    }

    /** A cursor over a superset of the matching child rows: an index or key-prefix seek when one fits, else a scan. */
    private RowCursor candidates(TableSchema child, List<Integer> columns, Collation[] collations, Object[] parentKey) {
        TableConnection connection = connection(child);
        for (IndexSchema index : child.constraints().indexes()) {
            if (index.where() == null && leads(index, columns, collations)) {
                return connection.scanIndex(index.name(), parentKey);
            }
        }
        TableShape shape = child.storage().shape();
        boolean keyLeads = shape.key().size() >= columns.size();
        for (int i = 0; i < columns.size() && keyLeads; i++) {
            int c = shape.key().get(i).column();
            keyLeads = c == columns.get(i) && child.columns().get(c).collation() == collations[i];
        }
        return connection.scan(keyLeads ? parentKey : WHOLE_TABLE, false);
    }

    private static boolean leads(IndexSchema index, List<Integer> columns, Collation[] collations) {
        if (index.columns().size() < columns.size()) {
            return false;
        }
        for (int i = 0; i < columns.size(); i++) {
            IndexSchema.IndexColumn c = index.columns().get(i);
            if (c.column() != columns.get(i) || c.collation() != collations[i]) {
                return false;
            }
        }
        return true;
    }

    private boolean parentExists(TableSchema child, ForeignKey fk, Object[] values) {
        ForeignKeyParent parentKey = parentKey(child, fk);
        parentKey.lockParent(context.transaction(), values);
        return parentKey.exists(connection(parentKey.parent()), values);
    }

    /** How a foreign key reaches its parent; {@code foreign key mismatch} when the parent columns are not unique. */
    private ForeignKeyParent parentKey(TableSchema child, ForeignKey fk) {
        ForeignKeyParent known = parentKeys.get(fk);
        if (known != null) {
            return known;
        }
        TableSchema parent = context.transaction().catalog().table(fk.parentSchema(), fk.parentTable())
                .orElseThrow(() -> new DeriveException(DeriveException.UNDEFINED_OBJECT, "no such table: "
                        + (fk.parentSchema() == null ? "" : fk.parentSchema() + ".") + fk.parentTable()));
        ForeignKeyParent found = ForeignKeyParent.of(child, fk, parent);
        parentKeys.put(fk, found);
        return found;
    }

    /**
     * The foreign keys (of any table) whose parent is {@code parent}. A maintained child's rows
     * are its body's: RESTRICT fails at once, as for any child; under any other action the
     * referencing rows are left to the derived-row checks at commit ({@link DeferredRowChecks}),
     * which the derivation must satisfy by then.
     */
    private List<Reference> referencing(TableSchema parent) {
        List<Catalog.ChildKey> children = context.transaction().catalog().foreignKeysReferencing(parent);
        if (children.isEmpty()) {
            return List.of(); // most written tables are nobody's parent
        }
        return references.computeIfAbsent(parent.key(), k -> {
            List<Reference> found = new ArrayList<>(children.size());
            for (Catalog.ChildKey c : children) {
                found.add(new Reference(c.child(), c.key(), parentKey(c.child(), c.key())));
            }
            return found;
        });
    }

    /** The referenced values of a parent row in foreign-key column order, or null when one is NULL. */
    private static Object[] parentValues(Reference ref, Object[] parentRow) {
        Object[] values = parentValuesOrNulls(ref, parentRow);
        for (Object v : values) {
            if (v == null) {
                return null;
            }
        }
        return values;
    }

    private static Object[] parentValuesOrNulls(Reference ref, Object[] parentRow) {
        int[] columns = ref.parentKey().columns();
        Object[] values = new Object[columns.length];
        for (int i = 0; i < columns.length; i++) {
            values[i] = parentRow[columns[i]];
        }
        return values;
    }

    private static boolean sameValues(ForeignKey fk, Object[] before, Object[] after) {
        for (int c : fk.columns()) {
            if (!ValueOrder.identical(before[c], after[c])) {
                return false;
            }
        }
        return true;
    }

    /** The child key of a row, or null when a component is NULL (MATCH SIMPLE). */
    private static Object[] childValues(ForeignKey fk, Object[] row) {
        Object[] values = new Object[fk.columns().size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = row[fk.columns().get(i)];
            if (values[i] == null) {
                return null;
            }
        }
        return values;
    }

    private TableConnection connection(TableSchema table) {
        return context.transaction().connection(table);
    }
}
