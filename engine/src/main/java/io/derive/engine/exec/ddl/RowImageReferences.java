package io.derive.engine.exec.ddl;

import io.derive.engine.api.DeriveException;
import io.derive.engine.schema.CheckConstraint;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.sql.ast.Expr;
import io.derive.engine.sql.ast.SourceSpan;
import io.derive.engine.sql.ast.Statement;

import java.util.List;
import java.util.Optional;

/**
 * Where a CHECK may name the {@code old.} and {@code new.} row images. On a maintained table it
 * may not (semantics §6): a derived row has no OLD image (a transition check would be vacuous)
 * and NEW is the row itself, which the check names unqualified. Such a CHECK is refused at
 * registration — {@code create table … maintained as}, {@code alter table … set maintained}, and
 * {@code alter table … add constraint} on a maintained table — before anything changes; a check
 * on delete alone is exempt, as it never applies to derived rows. On any table, a CHECK that
 * reads tables is checked at commit against the row as it is then, which has no images and no
 * deleted row: it may name neither image, nor apply to delete.
 */
public final class RowImageReferences {

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
        refuse(table.qualifiedName(), table.name(), definition(check), null);
    }

    /** Refuses the declared CHECKs of a table a derivation is being attached to, sited at the attaching statement. */
    public static void refuse(TableSchema table, SourceSpan at) {
        for (CheckConstraint check : table.constraints().checks()) {
            refuse(table.qualifiedName(), table.name(), check, at);
        }
    }

    /**
     * Refuses a CHECK that reads tables and names a row image or applies to delete, on any table.
     *
     * @throws DeriveException sited at the reference, or at the check for a delete
     */
    static void refuseAtCommit(String table, Statement.CheckDef def) {
        CheckConstraint check = definition(def);
        if (!check.readsTables()) {
            return;
        }
        Optional<Expr.ColumnRef> image = CheckConstraint.rowImageReference(check.condition(), table);
        if (image.isPresent()) {
            throw image.get().span().error(DeriveException.INVALID_DEFINITION, "CHECK constraint " + check.label()
                    + " of table '" + table + "' reads tables, so it is checked at commit, where a row has no OLD/NEW"
                    + " row images (" + image.get().table() + "." + image.get().column() + ")");
        }
        if (check.appliesTo(Statement.RowOperation.DELETE)) {
            throw def.span().error(DeriveException.INVALID_DEFINITION, "CHECK constraint " + check.label()
                    + " of table '" + table + "' reads tables, so it is checked at commit, when a deleted row is gone:"
                    + " it cannot apply to delete");
        }
    }

    private static CheckConstraint definition(Statement.CheckDef def) {
        return new CheckConstraint(def.name(), def.operations(), def.condition(), def.sql());
    }

    private static void refuseAll(List<Statement.TableConstraint> clauses, String qualified, String table) {
        for (Statement.TableConstraint clause : clauses) {
            if (clause instanceof Statement.CheckDef check) {
                refuse(qualified, table, definition(check), null);
            }
        }
    }

    /** @param at where to site the error; null: at the reference itself */
    private static void refuse(String qualified, String table, CheckConstraint check, SourceSpan at) {
        if (!check.appliesToDerivedRows()) {
            return;
        }
        Optional<Expr.ColumnRef> image = CheckConstraint.rowImageReference(check.condition(), table);
        if (image.isPresent()) {
            Expr.ColumnRef ref = image.get();
            SourceSpan site = at != null ? at : ref.span();
            throw new DeriveException(DeriveException.INVALID_DEFINITION, "cannot maintain '" + qualified
                    + "': CHECK constraint " + check.label() + " references OLD/NEW row images (" + ref.table() + "."
                    + ref.column() + "); a derived row has no OLD image and NEW is the row itself: name its columns"
                    + " unqualified", site.line(), site.column());
        }
    }
}
