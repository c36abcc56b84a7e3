package io.derive.engine.plan;

import io.derive.engine.api.DeriveException;
import io.derive.engine.sql.ast.Expr;
import io.derive.engine.sql.ast.Select;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The columns an expression may name: those of the row it is evaluated over, each with the
 * table name (or alias) that qualifies it.
 */
public final class Scope {

    /**
     * One visible column at a slot of the input row. {@code mergedAway} marks the right-hand copy
     * of a {@code using}/{@code natural} join column: unqualified references and {@code *} see
     * only the left copy. {@code source} is the {@code from} item that made the column visible
     * (null for a scope not built from a {@code from} clause): whether {@code qualifier} is a
     * table's own name or an alias is read from it.
     */
    public record Entry(String qualifier, OutputColumn column, int slot, boolean mergedAway, boolean rowId,
                        Select.TableRef source) {
    }

    /** SQLite's names for a table's row identity. */
    private static final java.util.Set<String> ROWID_NAMES = java.util.Set.of("rowid", "oid", "_rowid_");

    private final List<Entry> entries;

    private Scope(List<Entry> entries) {
        this.entries = List.copyOf(entries);
    }

    public static Scope empty() {
        return new Scope(List.of());
    }

    /** The columns of one source, all qualified by {@code qualifier}. */
    public static Scope of(String qualifier, List<OutputColumn> columns) {
        return of(qualifier, columns, null);
    }

    /** The columns of one {@code from} item, all qualified by {@code qualifier}. */
    static Scope of(String qualifier, List<OutputColumn> columns, Select.TableRef source) {
        List<Entry> entries = new ArrayList<>();
        for (int i = 0; i < columns.size(); i++) {
            entries.add(new Entry(qualifier, columns.get(i), i, false, false, source));
        }
        return new Scope(entries);
    }

    /**
     * The columns of a table; {@code rowIdSlot} (or -1) is the column that {@code rowid},
     * {@code oid} and {@code _rowid_} name unless the table declares a column of that name.
     */
    static Scope ofTable(String qualifier, List<OutputColumn> columns, int rowIdSlot, Select.NamedTable source) {
        List<Entry> entries = new ArrayList<>();
        for (int i = 0; i < columns.size(); i++) {
            entries.add(new Entry(qualifier, columns.get(i), i, false, i == rowIdSlot, source));
        }
        return new Scope(entries);
    }

    /**
     * The columns of {@code left} followed by those of {@code right}, whose slots move up by the
     * width of the left row: the scope of a row made by concatenating a left and a right row.
     */
    public static Scope combine(Scope left, Scope right) {
        int width = left.width();
        List<Entry> entries = new ArrayList<>(left.entries);
        for (Entry e : right.entries) {
            entries.add(new Entry(e.qualifier(), e.column(), e.slot() + width, e.mergedAway(), e.rowId(), e.source()));
        }
        return new Scope(entries);
    }

    /** This scope with the columns at these slots marked as merged away (see {@link Entry}). */
    public Scope mergingAway(java.util.Set<Integer> slots) {
        List<Entry> marked = new ArrayList<>();
        for (Entry e : entries) {
            marked.add(new Entry(e.qualifier(), e.column(), e.slot(), e.mergedAway() || slots.contains(e.slot()), e.rowId(),
                    e.source()));
        }
        return new Scope(marked);
    }

    /** The number of slots of a row this scope describes. */
    public int width() {
        int width = 0;
        for (Entry e : entries) {
            width = Math.max(width, e.slot() + 1);
        }
        return width;
    }

    public List<Entry> entries() {
        return entries;
    }

    /**
     * The column a reference names.
     *
     * @throws DeriveException {@code no such column: x} or {@code ambiguous column name: x}, sited
     */
    public Entry resolve(Expr.ColumnRef ref) {
        return find(ref).orElseThrow(() -> noSuchColumn(ref));
    }

    /**
     * The column a reference names, if this scope has it.
     *
     * @throws DeriveException {@code ambiguous column name: x} when more than one column matches
     */
    public Optional<Entry> find(Expr.ColumnRef ref) {
        Optional<Entry> found = findNamed(ref, ref.column());
        if (found.isEmpty() && ROWID_NAMES.contains(ref.column().toLowerCase(java.util.Locale.ROOT))) {
            for (Entry e : entries) {
                if (e.rowId() && (ref.table() == null || ref.table().equalsIgnoreCase(e.qualifier()))) {
                    if (found.isPresent()) {
                        throw new DeriveException(DeriveException.UNDEFINED_OBJECT,
                                "ambiguous column name: " + ref.column(), ref.span().line(), ref.span().column());
                    }
                    found = Optional.of(e);
                }
            }
        }
        return found;
    }

    private Optional<Entry> findNamed(Expr.ColumnRef ref, String column) {
        Entry found = null;
        for (Entry e : entries) {
            boolean qualifierMatches = ref.table() == null || ref.table().equalsIgnoreCase(e.qualifier());
            if (!qualifierMatches || !e.column().name().equalsIgnoreCase(column)) {
                continue;
            }
            if (ref.table() == null && e.mergedAway()) {
                continue;
            }
            if (found != null) {
                throw new DeriveException(DeriveException.UNDEFINED_OBJECT,
                        "ambiguous column name: " + ref.column(), ref.span().line(), ref.span().column());
            }
            found = e;
        }
        return Optional.ofNullable(found);
    }

    public static DeriveException noSuchColumn(Expr.ColumnRef ref) {
        return new DeriveException(DeriveException.UNDEFINED_OBJECT,
                "no such column: " + (ref.table() == null ? "" : ref.table() + ".") + ref.column(),
                ref.span().line(), ref.span().column());
    }
}
