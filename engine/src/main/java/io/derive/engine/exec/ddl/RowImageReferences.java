package io.derive.engine.exec.ddl;

import io.derive.engine.api.DeriveException;
import io.derive.engine.schema.CheckConstraint;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.sql.ast.AstWalk;
import io.derive.engine.sql.ast.Expr;
import io.derive.engine.sql.ast.Select;
import io.derive.engine.sql.ast.SourceSpan;
import io.derive.engine.sql.ast.Statement;

import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * A CHECK of a maintained table may not name the {@code old.} or {@code new.} row images
 * (semantics §6): a derived row has no OLD image (a transition check would be vacuous) and NEW is
 * the row itself, which the check names unqualified. Such a CHECK is refused at registration —
 * {@code create table … maintained as}, {@code alter table … set maintained}, and {@code alter
 * table … add constraint} on a maintained table — before anything changes. A qualifier that is
 * the table's own name, or an alias or table the check's subqueries name, is not a row image.
 */
public final class RowImageReferences {
    private static final Set<String> IMAGES = Set.of("old", "new");

    private RowImageReferences() {
    }

    /** Refuses the CHECK clauses of a table-form {@code create table … maintained as}. */
    public static void refuse(Statement.CreateTable create, String schema) {
        String table = create.name().name();
        for (Statement.ColumnDef column : create.columns()) {
            refuseAll(column.constraints(), schema + "." + table, table);
        }
        refuseAll(create.constraints(), schema + "." + table, table);
    }

    /** Refuses a CHECK being added to the maintained table {@code table}. */
    static void refuse(TableSchema table, Statement.CheckDef check) {
        refuse(table.qualifiedName(), table.name(), check.name() != null ? check.name() : check.sql(), check.condition(),
                null);
    }

    /** Refuses the declared CHECKs of a table a derivation is being attached to, sited at the attaching statement. */
    public static void refuse(TableSchema table, SourceSpan at) {
        for (CheckConstraint check : table.constraints().checks()) {
            refuse(table.qualifiedName(), table.name(), check.label(), check.condition(), at);
        }
    }

    private static void refuseAll(List<Statement.TableConstraint> clauses, String qualified, String table) {
        for (Statement.TableConstraint clause : clauses) {
            if (clause instanceof Statement.CheckDef check) {
                refuse(qualified, table, check.name() != null ? check.name() : check.sql(), check.condition(), null);
            }
        }
    }

    /** @param at where to site the error; null: at the reference itself */
    private static void refuse(String qualified, String table, String constraint, Expr condition, SourceSpan at) {
        Optional<Expr.ColumnRef> image = find(condition, table);
        if (image.isPresent()) {
            Expr.ColumnRef ref = image.get();
            SourceSpan site = at != null ? at : ref.span();
            throw new DeriveException(DeriveException.INVALID_DEFINITION, "cannot maintain '" + qualified
                    + "': CHECK constraint " + constraint + " references OLD/NEW row images (" + ref.table() + "."
                    + ref.column() + "); a derived row has no OLD image and NEW is the row itself: name its columns"
                    + " unqualified", site.line(), site.column());
        }
    }

    /** The first column reference qualified by {@code old} or {@code new} that names no table of the check. */
    static Optional<Expr.ColumnRef> find(Expr condition, String table) {
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
                if (IMAGES.contains(qualifier) && !named.contains(qualifier)) {
                    return Optional.of(ref);
                }
            }
        }
        return Optional.empty();
    }
}
