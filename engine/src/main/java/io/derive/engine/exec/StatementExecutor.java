package io.derive.engine.exec;

import io.derive.engine.api.Result;
import io.derive.engine.api.Row;
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
        if (statement instanceof Statement.Drop d) {
            return new DdlExecutor(context).drop(d);
        }
        if (statement instanceof Statement.CreateMaterializedView c) {
            return context.services().materializedViews().create(c, context);
        }
        if (statement instanceof Statement.RefreshMaterializedView r) {
            return context.services().materializedViews().refresh(r, context);
        }
        throw new IllegalStateException("transaction control belongs to the session: " + statement);
    }

    private static Result query(Statement.Query query, ExecutionContext context) {
        PlanNode plan = new QueryBinder(context.transaction().catalog(), context.sql()).bind(query.select());
        List<String> names = plan.columns().stream().map(OutputColumn::name).toList();
        List<Row> rows = new ArrayList<>();
        for (Object[] values : context.queries().readAll(plan)) {
            rows.add(new Row(names, values));
        }
        return new Result(names, rows, 0);
    }
}
