package io.derive.engine.exec.ddl;

import io.derive.engine.api.DeriveException;
import io.derive.engine.api.RefreshSchedule;
import io.derive.engine.api.Result;
import io.derive.engine.api.StatementKind;
import io.derive.engine.exec.context.ExecutionContext;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.sql.ast.QualifiedName;
import io.derive.engine.sql.ast.Statement;
import io.derive.engine.txn.Transaction;


/**
 * {@code alter materialized view n …}: the tags (semantics §2) and the refresh schedule (§9) of a
 * materialized view. Both are metadata in the catalog: changing them never touches the backing or
 * the maintenance, and, like any DDL, a rollback undoes it; the scheduler reads the schedule from
 * the committed catalog.
 */
public final class MaterializedViewAlter {
    private final ExecutionContext context;

    public MaterializedViewAlter(ExecutionContext context) {
        this.context = context;
    }

    public Result alter(Statement.AlterMaterializedView alter) {
        TableSchema mv = materializedView(context.transaction(), alter.name());
        Statement.ViewAction action = alter.action();
        TableSchema next = action instanceof Statement.RefreshSchedule s
                ? mv.withDerivation(mv.derivation().withSchedule(schedule(mv, s)))
                : mv.withTags(TagChanges.changed(mv.tags(), action, "materialized view '" + mv.qualifiedName() + "'"));
        Transaction txn = context.transaction();
        txn.beginSchemaChange();
        txn.changeCatalog(txn.catalog().with(next));
        return Result.empty(StatementKind.DDL);
    }

    /** The schedule {@code s} sets, or null for {@code drop refresh schedule}, which needs one to drop. */
    private static RefreshSchedule schedule(TableSchema mv, Statement.RefreshSchedule s) {
        if (s.cron() == null) {
            if (mv.derivation().schedule() == null) {
                throw s.span().error(DeriveException.UNDEFINED_OBJECT, "materialized view '" + mv.qualifiedName()
                        + "' has no refresh schedule to drop");
            }
            return null;
        }
        try {
            return RefreshSchedule.parse(s.cron());
        } catch (DeriveException e) {
            throw s.span().error(e.code(), "materialized view '" + mv.qualifiedName() + "': " + e.getMessage());
        }
    }

    /** The materialized view {@code name} names: {@code no such materialized view: n} or a table's refusal. */
    static TableSchema materializedView(Transaction txn, QualifiedName name) {
        TableSchema table = txn.catalog().table(name.schema(), name.name()).orElseThrow(() -> name.span().error(DeriveException.UNDEFINED_OBJECT, "no such materialized view: " + name));
        if (!table.isMaintained()) {
            throw name.span().error(DeriveException.INVALID_DEFINITION, "'" + name
                    + "' is a table, not a materialized view");
        }
        return table;
    }
}
