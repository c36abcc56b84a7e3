package io.derive.engine.exec.ddl;

import io.derive.engine.api.DeriveException;
import io.derive.engine.api.Result;
import io.derive.engine.api.StatementKind;
import io.derive.engine.exec.context.ExecutionContext;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.schema.Tags;
import io.derive.engine.sql.ast.QualifiedName;
import io.derive.engine.sql.ast.Statement;
import io.derive.engine.txn.Transaction;


/**
 * {@code alter materialized view n …}: the tags of a materialized view (semantics §2). Tags are
 * metadata in the catalog: changing them never touches the backing or the maintenance, and, like
 * any DDL, a rollback undoes it. Refresh schedules belong to the scheduler (semantics §9) and are
 * refused until it exists.
 */
public final class MaterializedViewAlter {
    private final ExecutionContext context;

    public MaterializedViewAlter(ExecutionContext context) {
        this.context = context;
    }

    public Result alter(Statement.AlterMaterializedView alter) {
        TableSchema mv = materializedView(context.transaction(), alter.name());
        Statement.ViewAction action = alter.action();
        if (action instanceof Statement.RefreshSchedule s) {
            throw s.span().error(DeriveException.FEATURE_NOT_SUPPORTED, "alter materialized view … "
                    + (s.cron() == null ? "drop" : "set") + " refresh schedule is not supported yet");
        }
        Tags tags = TagChanges.changed(mv.tags(), action, "materialized view '" + mv.qualifiedName() + "'");
        Transaction txn = context.transaction();
        txn.beginSchemaChange();
        txn.changeCatalog(txn.catalog().with(mv.withTags(tags)));
        return Result.empty(StatementKind.DDL);
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
