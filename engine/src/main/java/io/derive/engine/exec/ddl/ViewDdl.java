package io.derive.engine.exec.ddl;

import io.derive.engine.api.DeriveException;
import io.derive.engine.api.Result;
import io.derive.engine.api.StatementKind;
import io.derive.engine.exec.context.ExecutionContext;
import io.derive.engine.plan.PlanNode;
import io.derive.engine.plan.QueryBinder;
import io.derive.engine.schema.Catalog;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.schema.Tags;
import io.derive.engine.schema.ViewSchema;
import io.derive.engine.sql.Parser;
import io.derive.engine.sql.ast.QualifiedName;
import io.derive.engine.sql.ast.SourceSpan;
import io.derive.engine.sql.ast.Statement;
import io.derive.engine.txn.Transaction;

import java.util.Optional;

/**
 * {@code create view} and {@code drop view}: change the transaction's working catalog only (a
 * view has no storage), so a rollback undoes them like any DDL. Views and tables share one
 * namespace per schema.
 */
public final class ViewDdl {
    private final ExecutionContext context;

    public ViewDdl(ExecutionContext context) {
        this.context = context;
    }

    public Result create(Statement.CreateView create) {
        Transaction txn = context.transaction();
        String schema = schemaOf(create);
        String name = create.name().name();
        Optional<String> taken = existingKind(txn.catalog(), schema, name);
        if (taken.isPresent()) {
            if (create.ifNotExists()) {
                return Result.empty(StatementKind.DDL);
            }
            throw create.name().span().error(DeriveException.DUPLICATE_OBJECT, taken.get() + " '" + schema + "." + name
                    + "' already exists");
        }
        // bound now, as Derby and PostgreSQL do, so a view that cannot be read is never created
        PlanNode plan = new QueryBinder(txn.catalog(), context.sql()).bind(create.body());
        int produced = plan.columns().size();
        if (!create.columnNames().isEmpty() && create.columnNames().size() != produced) {
            throw create.name().span().error(DeriveException.INVALID_DEFINITION, "view '" + name + "' has "
                    + create.columnNames().size() + " declared columns but its body produces " + produced);
        }
        ViewSchema view = new ViewSchema(schema, name, create.columnNames(), create.bodySql(),
                Parser.parseQuery(create.bodySql()), Tags.of(create.tags()));
        txn.changeCatalog(txn.catalog().with(view));
        return Result.empty(StatementKind.DDL);
    }

    /**
     * {@code alter view v set|add|drop tags (…)}: the view's tags, in the working catalog; its
     * body and what reads it are untouched. A table is refused with the statement that fits it.
     */
    public Result alter(Statement.AlterView alter) {
        Transaction txn = context.transaction();
        QualifiedName name = alter.name();
        Optional<ViewSchema> view = txn.catalog().view(name.schema(), name.name());
        if (view.isEmpty()) {
            Optional<TableSchema> table = txn.catalog().table(name.schema(), name.name());
            if (table.isPresent()) {
                String instead = table.get().isMaintained() ? "ALTER MATERIALIZED VIEW" : "ALTER TABLE";
                throw name.span().error(DeriveException.INVALID_DEFINITION, "'" + name + "' is a "
                        + table.get().kindName() + ", not a view: use " + instead);
            }
            throw name.span().error(DeriveException.UNDEFINED_OBJECT, "no such view: " + name);
        }
        Tags tags = TagChanges.changed(view.get().tags(), alter.action(), "view '" + view.get().qualifiedName() + "'");
        txn.beginSchemaChange();
        txn.changeCatalog(txn.catalog().with(view.get().withTags(tags)));
        return Result.empty(StatementKind.DDL);
    }

    public Result drop(Statement.Drop drop) {
        Transaction txn = context.transaction();
        QualifiedName name = drop.name();
        Optional<ViewSchema> view = txn.catalog().view(name.schema(), name.name());
        if (view.isPresent()) {
            txn.changeCatalog(txn.catalog().without(view.get()));
            return Result.empty(StatementKind.DDL);
        }
        Optional<TableSchema> table = txn.catalog().table(name.schema(), name.name());
        if (table.isPresent()) {
            String instead = table.get().isMaintained() ? "DROP MATERIALIZED VIEW" : "DROP TABLE";
            throw name.span().error(DeriveException.INVALID_DEFINITION, "'" + name + "' is a "
                    + table.get().kindName() + ", not a view: use " + instead);
        }
        if (drop.ifExists()) {
            return Result.empty(StatementKind.DDL);
        }
        throw name.span().error(DeriveException.UNDEFINED_OBJECT, "no such view: " + name);
    }

    /** DML naming a view fails as in SQLite: {@code cannot modify v because it is a view}. */
    public static void refuseWrite(Catalog catalog, QualifiedName name) {
        if (catalog.table(name.schema(), name.name()).isEmpty() && catalog.view(name.schema(), name.name()).isPresent()) {
            throw name.span().error(DeriveException.READ_ONLY, "cannot modify " + name + " because it is a view");
        }
    }

    /**
     * What already holds a name in a schema, as {@code already exists} messages say it:
     * {@code table}, {@code materialized view} or {@code view}. Creating a table, view or
     * materialized view checks this one namespace.
     */
    static Optional<String> existingKind(Catalog catalog, String schema, String name) {
        Optional<TableSchema> table = catalog.table(schema, name);
        if (table.isPresent()) {
            return Optional.of(table.get().kindName());
        }
        return catalog.view(schema, name).map(v -> "view");
    }

    private static String schemaOf(Statement.CreateView create) {
        if (!create.temporary()) {
            return DdlExecutor.schemaName(create.name());
        }
        String named = create.name().schema();
        if (named != null && !named.equalsIgnoreCase(Catalog.TEMP)) {
            SourceSpan at = create.name().span();
            throw at.error(DeriveException.SYNTAX, "temporary view name must be unqualified or in temp");
        }
        return Catalog.TEMP;
    }
}
