package io.derive.engine.exec.dml;

import io.derive.engine.api.DeriveException;
import io.derive.engine.api.Result;
import io.derive.engine.api.Row;
import io.derive.engine.api.StatementKind;
import io.derive.engine.exec.context.ExecutionContext;
import io.derive.engine.exec.expr.Evaluator;
import io.derive.engine.exec.expr.ExpressionCompiler;
import io.derive.engine.exec.expr.Parameters;
import io.derive.engine.exec.write.IndexShapes;
import io.derive.engine.plan.ExpressionBinder;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.sql.ast.Expr;
import io.derive.engine.sql.ast.Select;

import java.util.ArrayList;
import java.util.List;

/**
 * The {@code returning} clause of a write: evaluated over each row the statement wrote to its
 * target table (the new image for insert and update, the old one for delete; rows changed by
 * cascades are not returned), in the order they were written.
 */
final class Returning {
    private final List<String> names = new ArrayList<>();
    private final List<Evaluator> values = new ArrayList<>();
    private final List<Row> rows = new ArrayList<>();
    private final Parameters parameters;

    private Returning(Parameters parameters) {
        this.parameters = parameters;
    }

    /** The clause compiled against the target table; null when the statement has none. */
    static Returning of(List<Select.SelectItem> items, TableSchema table, ExecutionContext context) {
        if (items.isEmpty()) {
            return null;
        }
        Returning r = new Returning(context.parameters());
        for (Select.SelectItem item : items) {
            if (item instanceof Select.Star star) {
                if (star.table() != null && !star.table().equalsIgnoreCase(table.name())) {
                    throw new DeriveException(DeriveException.UNDEFINED_OBJECT, "no such table: " + star.table(),
                            star.span().line(), star.span().column());
                }
                for (int i = 0; i < table.columns().size(); i++) {
                    if (!table.columns().get(i).hidden()) {
                        int column = i;
                        r.names.add(table.columns().get(i).name());
                        r.values.add((row, p) -> row[column]);
                    }
                }
            } else {
                Select.Column c = (Select.Column) item;
                r.names.add(c.alias() != null ? c.alias() : defaultName(c.expr(), context.sql()));
                r.values.add(ExpressionCompiler.compile(ExpressionBinder.bind(c.expr(), IndexShapes.scopeOf(table))));
            }
        }
        return r;
    }

    private static String defaultName(Expr e, String sql) {
        return e instanceof Expr.ColumnRef ref ? ref.column() : e.span().text(sql);
    }

    /** Adds the returned row for one written row. */
    void add(Object[] row) {
        Object[] out = new Object[values.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = values.get(i).eval(row, parameters);
        }
        rows.add(new Row(names, out));
    }

    /** The result of the write of {@code kind}: the returned rows, and the count of rows written. */
    Result result(StatementKind kind, long changes) {
        return new Result(kind, names, rows, changes);
    }
}
