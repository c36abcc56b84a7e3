package io.derive.engine.plan;

import io.derive.engine.api.DeriveException;
import io.derive.engine.sql.ast.Expr;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The columns an expression may name: those of the row it is evaluated over, each with the
 * table name (or alias) that qualifies it.
 */
public final class Scope {

    /** One visible column at a slot of the input row. */
    public record Entry(String qualifier, OutputColumn column, int slot) {
    }

    private final List<Entry> entries;

    private Scope(List<Entry> entries) {
        this.entries = List.copyOf(entries);
    }

    public static Scope empty() {
        return new Scope(List.of());
    }

    /** The columns of one source, all qualified by {@code qualifier}. */
    public static Scope of(String qualifier, List<OutputColumn> columns) {
        List<Entry> entries = new ArrayList<>();
        for (int i = 0; i < columns.size(); i++) {
            entries.add(new Entry(qualifier, columns.get(i), i));
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
            entries.add(new Entry(e.qualifier(), e.column(), e.slot() + width));
        }
        return new Scope(entries);
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
        Optional<Entry> found = Optional.empty();
        for (Entry e : entries) {
            boolean qualifierMatches = ref.table() == null || ref.table().equalsIgnoreCase(e.qualifier());
            if (qualifierMatches && e.column().name().equalsIgnoreCase(ref.column())) {
                if (found.isPresent()) {
                    throw new DeriveException(DeriveException.UNDEFINED_OBJECT,
                            "ambiguous column name: " + ref.column(), ref.span().line(), ref.span().column());
                }
                found = Optional.of(e);
            }
        }
        return found.orElseThrow(() -> new DeriveException(DeriveException.UNDEFINED_OBJECT,
                "no such column: " + (ref.table() == null ? "" : ref.table() + ".") + ref.column(),
                ref.span().line(), ref.span().column()));
    }
}
