package io.derive.engine.exec;

import io.derive.engine.api.Result;
import io.derive.engine.api.Row;
import io.derive.engine.api.StatementKind;
import io.derive.engine.exec.context.ExecutionContext;
import io.derive.engine.exec.ddl.AlterTableExecutor;
import io.derive.engine.exec.ddl.AnalyzeExecutor;
import io.derive.engine.exec.ddl.DdlExecutor;
import io.derive.engine.exec.ddl.IndexDdl;
import io.derive.engine.exec.ddl.MaterializedViewAlter;
import io.derive.engine.exec.ddl.RowImageReferences;
import io.derive.engine.exec.ddl.ViewDdl;
import io.derive.engine.exec.dml.DmlExecutor;
import io.derive.engine.exec.query.PlanPrinter;
import io.derive.engine.plan.OutputColumn;
import io.derive.engine.plan.PlanNode;
import io.derive.engine.plan.QueryBinder;
import io.derive.engine.sql.ast.Statement;

import java.util.ArrayList;
import java.util.List;

/** Runs one statement (not a transaction-control one) in the transaction of its context. */
final class StatementExecutor {
    private StatementExecutor() {
    }

    static Result run(Statement statement, ExecutionContext context) {
        if (statement instanceof Statement.Query q) {
            return query(q, context);
        }
        if (statement instanceof Statement.Explain e) {
            return explain(e, context);
        }
        if (statement instanceof Statement.Insert i) {
            return new DmlExecutor(context).insert(i);
        }
        if (statement instanceof Statement.Update u) {
            return new DmlExecutor(context).update(u);
        }
        if (statement instanceof Statement.Delete d) {
            return new DmlExecutor(context).delete(d);
        }
        if (statement instanceof Statement.CreateTable c) {
            return new DdlExecutor(context).createTable(c);
        }
        if (statement instanceof Statement.Drop d && d.kind() == Statement.ObjectKind.VIEW) {
            return new ViewDdl(context).drop(d);
        }
        if (statement instanceof Statement.Drop d) {
            return new DdlExecutor(context).drop(d);
        }
        if (statement instanceof Statement.CreateView c) {
            return new ViewDdl(context).create(c);
        }
        if (statement instanceof Statement.AlterTable a) {
            return new AlterTableExecutor(context).alter(a);
        }
        if (statement instanceof Statement.AlterView a) {
            return new ViewDdl(context).alter(a);
        }
        if (statement instanceof Statement.CreateIndex c) {
            return new IndexDdl(context).create(c);
        }
        if (statement instanceof Statement.DropIndex d) {
            return new IndexDdl(context).drop(d);
        }
        if (statement instanceof Statement.Pragma p) {
            return context.pragmas().run(p);
        }
        if (statement instanceof Statement.CreateMaterializedView c) {
            return context.services().materializedViews().create(c, context);
        }
        if (statement instanceof Statement.RefreshMaterializedView r) {
            return context.services().materializedViews().refresh(r, context);
        }
        if (statement instanceof Statement.RehydrateMaterializedView r) {
            return context.services().materializedViews().rehydrate(r, context);
        }
        if (statement instanceof Statement.VerifyMaterializedView v) {
            return context.services().materializedViews().verify(v, context);
        }
        if (statement instanceof Statement.AlterMaterializedView a) {
            return new MaterializedViewAlter(context).alter(a);
        }
        if (statement instanceof Statement.Analyze a) {
            return new AnalyzeExecutor(context).analyze(a);
        }
        if (statement instanceof Statement.CreateMaintainedTable c) {
            return createMaintainedTable(c, context);
        }
        throw new IllegalStateException("transaction control belongs to the session: " + statement);
    }

    /** One row per plan line; for a materialized view's creation, its maintenance arm after the body's plan. */
    private static Result explain(Statement.Explain explain, ExecutionContext context) {
        List<String> lines = new ArrayList<>();
        Statement inner = explain.statement();
        QueryBinder binder = new QueryBinder(context.transaction().catalog(), context.sql());
        if (inner instanceof Statement.Query q) {
            lines.addAll(PlanPrinter.print(binder.bind(q.select())));
        } else if (inner instanceof Statement.CreateMaterializedView mv) {
            lines.addAll(PlanPrinter.print(binder.bind(mv.body())));
            lines.add("maintenance: " + context.services().materializedViews().explainArm(mv, context));
        } else {
            throw new io.derive.engine.api.DeriveException(io.derive.engine.api.DeriveException.FEATURE_NOT_SUPPORTED,
                    "explain shows queries and materialized views only", explain.span().line(), explain.span().column());
        }
        List<String> names = List.of("plan");
        List<Row> rows = new ArrayList<>();
        for (String line : lines) {
            rows.add(new Row(names, new Object[] {line}));
        }
        return new Result(StatementKind.EXPLAIN, names, rows, 0);
    }

    /** The table form: the declared table, then its derivation attached (all or nothing, as one statement). */
    private static Result createMaintainedTable(Statement.CreateMaintainedTable create, ExecutionContext context) {
        if (context.transaction().catalog().table(create.table().name().schema(), create.table().name().name()).isPresent()
                && create.table().ifNotExists()) {
            return Result.empty(StatementKind.DDL);
        }
        RowImageReferences.refuse(create.table(), DdlExecutor.schemaName(create.table().name()));
        new DdlExecutor(context).createTable(create.table());
        var name = create.table().name();
        io.derive.engine.schema.TableSchema table = QueryBinder.resolveTable(context.transaction().catalog(),
                name.schema() == null ? null : name.schema(), name.name(), name.span().line(), name.span().column());
        context.services().materializedViews().attach(table, create.columnNames(), create.body(), create.bodySql(),
                false, context, create.span());
        return Result.empty(StatementKind.DDL);
    }

    private static Result query(Statement.Query query, ExecutionContext context) {
        io.derive.engine.schema.Catalog catalog = context.transaction().catalog();
        java.util.function.Supplier<PlanNode> planner = () -> new QueryBinder(catalog, context.sql()).bind(query.select());
        PlanNode plan = context.plans() == null ? planner.get() : context.plans().plan(catalog, planner);
        List<String> names = plan.columns().stream().map(OutputColumn::name).toList();
        List<Row> rows = new ArrayList<>();
        for (Object[] values : context.queries().readAll(plan)) {
            rows.add(new Row(names, values));
        }
        return new Result(StatementKind.QUERY, names, rows, 0);
    }
}
