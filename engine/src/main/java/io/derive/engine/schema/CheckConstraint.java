package io.derive.engine.schema;

import io.derive.engine.sql.ast.AstWalk;
import io.derive.engine.sql.ast.Expr;
import io.derive.engine.sql.ast.Select;
import io.derive.engine.sql.ast.Statement.RowOperation;

import java.util.EnumSet;
import java.util.HashSet;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * A {@code CHECK} constraint: a row may be written only when {@code condition} is not false (NULL
 * passes, as in SQL). A condition that holds a subquery reads other rows, so it is checked
 * against the transaction's final state, at commit (semantics §6); any other is checked on the
 * row as it is written.
 *
 * <p>{@code operations} are the user writes it applies to ({@code check on insert, delete (…)};
 * insert and update when the definition names none). Evaluated for a write, the condition sees
 * two row images, {@code old.c} and {@code new.c}: an insert has an all-NULL OLD, a delete an
 * all-NULL NEW with the deleted row as OLD, an update both. An unqualified column (or one
 * qualified by the table's name) names NEW, except in a delete-only check, where it names OLD.
 * Derivation writes of a maintained table apply every CHECK whose operations include insert or
 * update, insert-shaped (semantics §6).
 *
 * @param name       the declared name ({@code constraint ck check (…)}), or null
 * @param operations the operations it applies to; never empty
 * @param condition  the expression over the row images
 * @param sql        the expression's text as written
 */
public record CheckConstraint(String name, Set<RowOperation> operations, Expr condition, String sql) {

    /** What a CHECK written without {@code on …} applies to. */
    public static final Set<RowOperation> INSERT_AND_UPDATE = Set.of(RowOperation.INSERT, RowOperation.UPDATE);

    public CheckConstraint {
        operations = Set.copyOf(operations);
        if (operations.isEmpty()) {
            throw new IllegalArgumentException("a CHECK applies to some operation");
        }
    }

    /** A CHECK on insert and update. */
    public CheckConstraint(String name, Expr condition, String sql) {
        this(name, INSERT_AND_UPDATE, condition, sql);
    }

    /** The same check over another condition (a rename rewrote it). */
    public CheckConstraint withCondition(Expr nextCondition, String nextSql) {
        return new CheckConstraint(name, operations, nextCondition, nextSql);
    }

    /** How {@code CHECK constraint failed: …} names it: its name, else its expression text. */
    public String label() {
        return name != null ? name : sql;
    }

    /** Whether the condition holds a subquery (found by walking it: callers compile once and keep the answer). */
    public boolean readsTables() {
        return AstWalk.hasSubquery(condition);
    }

    public boolean appliesTo(RowOperation operation) {
        return operations.contains(operation);
    }

    /** Whether a row maintenance derives must pass it: it applies to insert or update (semantics §6). */
    public boolean appliesToDerivedRows() {
        return appliesTo(RowOperation.INSERT) || appliesTo(RowOperation.UPDATE);
    }

    /** Whether an unqualified column names the OLD image: in a check on delete alone. */
    public boolean unqualifiedIsOld() {
        return operations.equals(EnumSet.of(RowOperation.DELETE));
    }

    /** Whether the condition names a row image, {@code old.c} or {@code new.c}, of table {@code table}. */
    public boolean namesRowImages(String table) {
        return rowImageReference(condition, table).isPresent();
    }

    /**
     * The first column reference of {@code condition} qualified by {@code old} or {@code new}
     * that is not a table's: the check's own table ({@code table}) and the tables, aliases and
     * functions its subqueries name keep their qualifiers.
     */
    public static Optional<Expr.ColumnRef> rowImageReference(Expr condition, String table) {
        Set<String> named = new HashSet<>();
        named.add(table.toLowerCase(Locale.ROOT));
        for (Object node : AstWalk.nodes(condition, Object.class)) {
            if (node instanceof Select.NamedTable t) {
                named.add((t.alias() != null ? t.alias() : t.name().name()).toLowerCase(Locale.ROOT));
            } else if (node instanceof Select.Subquery q && q.alias() != null) {
                named.add(q.alias().toLowerCase(Locale.ROOT));
            } else if (node instanceof Select.TableFunction f) {
                named.add((f.alias() != null ? f.alias() : f.name()).toLowerCase(Locale.ROOT));
            }
        }
        for (Expr.ColumnRef ref : AstWalk.nodes(condition, Expr.ColumnRef.class)) {
            if (ref.table() != null) {
                String qualifier = ref.table().toLowerCase(Locale.ROOT);
                if ((qualifier.equals("old") || qualifier.equals("new")) && !named.contains(qualifier)) {
                    return Optional.of(ref);
                }
            }
        }
        return Optional.empty();
    }
}
