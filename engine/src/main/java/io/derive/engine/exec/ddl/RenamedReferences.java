package io.derive.engine.exec.ddl;

import io.derive.engine.plan.NameResolutions;
import io.derive.engine.plan.Scope;
import io.derive.engine.schema.CanonicalDdl;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.schema.ViewSchema;
import io.derive.engine.sql.IdentifierEdits;
import io.derive.engine.sql.ast.Expr;
import io.derive.engine.sql.ast.Select;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What the names of one body mean, learned while the {@link io.derive.engine.plan.QueryBinder}
 * binds it: the tables and views it names, a trace of what each name resolved to, and, when
 * given {@link Renames}, the identifiers to replace so the body says the same under the new
 * names.
 *
 * <p>A name is replaced only where binding resolved it to the renamed object: a {@code from}
 * name bound to the renamed table; a qualifier that is that table's own name (not an alias); a
 * column reference bound to a renamed column, or to a column of a derived table, common table or
 * view that publishes the renamed column's name ({@link io.derive.engine.plan.ColumnOrigin}). A
 * same-named column of another table, an alias, a string literal are left as written.
 *
 * <p>The trace names what each name resolved to in terms a rename does not change (the table's
 * key after the rename, a column's scope depth and slot), so the body bound before the rename and
 * the rewritten body bound after it read the same rows exactly when their traces are equal.
 */
final class RenamedReferences implements NameResolutions {
    private final Renames renames;
    private final IdentifierEdits edits;
    private final Set<String> named = new LinkedHashSet<>();
    private final List<String> trace = new ArrayList<>();
    /** The {@code from} names bound to the renamed table without an alias: their name qualifies columns. */
    private final Map<Select.NamedTable, String> renamedQualifiers = new IdentityHashMap<>();
    private String joinedByName;

    private RenamedReferences(Renames renames, String sql) {
        this.renames = renames;
        this.edits = renames == null ? null : new IdentifierEdits(sql);
    }

    /** Collects the replacements that carry {@code renames} into {@code sql}, a body bound before the rename. */
    static RenamedReferences rewriting(Renames renames, String sql) {
        return new RenamedReferences(renames, sql);
    }

    /** Only records what the names of a body resolve to. */
    static RenamedReferences reading() {
        return new RenamedReferences(null, null);
    }

    /** Catalog keys of the tables and views the body names in {@code from} (views it reads are not looked into). */
    Set<String> named() {
        return named;
    }

    /** What each name resolved to, in binding order. */
    List<String> trace() {
        return trace;
    }

    /** Whether the body says something else under the new names. */
    boolean rewrites() {
        return edits != null && !edits.isEmpty();
    }

    /** The body's text with the renamed names replaced. */
    String rewritten() {
        return edits.result();
    }

    /**
     * A column a {@code using} list or {@code natural} join matches by a renamed name; null when
     * there is none. Such a join cannot follow a rename of one side (the other keeps the name).
     */
    String joinedByName() {
        return joinedByName;
    }

    @Override
    public void table(Select.NamedTable ref, TableSchema table) {
        named.add(table.key());
        trace.add("table " + (renames == null ? table.key() : renames.newKey(table.key())));
        String newName = renames == null ? null : renames.newTableName(table.key());
        if (newName != null) {
            edits.replaceLast(ref.name().span(), CanonicalDdl.identifier(newName));
            if (ref.alias() == null) {
                renamedQualifiers.put(ref, newName);
            }
        }
    }

    @Override
    public void view(Select.NamedTable ref, ViewSchema view) {
        named.add(view.key());
        trace.add("view " + view.key());
    }

    @Override
    public void commonTable(Select.NamedTable ref) {
        trace.add("with " + ref.name().name().toLowerCase(Locale.ROOT));
    }

    @Override
    public void column(Expr.ColumnRef ref, int depth, Scope.Entry entry) {
        trace.add("column " + depth + " " + entry.slot());
        if (renames == null) {
            return;
        }
        String newName = renames.newColumnName(entry.column().origin());
        // "rowid" naming a key column reads the key by another name, which a rename leaves alone
        if (newName != null && ref.column().equalsIgnoreCase(entry.column().name())) {
            edits.replaceLast(ref.span(), CanonicalDdl.identifier(newName));
        }
        String qualifier = ref.table() == null ? null : renamedQualifiers.get(entry.source());
        if (qualifier != null) {
            edits.replaceFirst(ref.span(), CanonicalDdl.identifier(qualifier));
        }
    }

    @Override
    public void star(Select.Star star, List<Scope.Entry> entries) {
        StringBuilder slots = new StringBuilder("star");
        entries.forEach(e -> slots.append(' ').append(e.slot()));
        trace.add(slots.toString());
        if (renames != null && star.table() != null) {
            String qualifier = renamedQualifiers.get(entries.get(0).source());
            if (qualifier != null) {
                edits.replaceFirst(star.span(), CanonicalDdl.identifier(qualifier));
            }
        }
    }

    @Override
    public void joinColumn(Select.Join join, String column, Scope.Entry left, Scope.Entry right) {
        trace.add("join " + left.slot() + " " + right.slot());
        if (renames != null && joinedByName == null && (renames.newColumnName(left.column().origin()) != null
                || renames.newColumnName(right.column().origin()) != null)) {
            joinedByName = column;
        }
    }
}
