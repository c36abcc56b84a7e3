package io.derive.engine.exec.write;

import io.derive.engine.exec.expr.ExpressionCompiler;
import io.derive.engine.exec.expr.Parameters;
import io.derive.engine.plan.ExpressionBinder;
import io.derive.engine.plan.PlanNode;
import io.derive.engine.plan.Scope;
import io.derive.engine.schema.IndexSchema;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.spi.IndexShape;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/** Turns a catalog {@link IndexSchema} into what the host keeps, compiling a partial index's predicate. */
public final class IndexShapes {
    private IndexShapes() {
    }

    public static IndexShape of(TableSchema table, IndexSchema index) {
        List<IndexShape.Column> columns = new ArrayList<>();
        for (IndexSchema.IndexColumn c : index.columns()) {
            columns.add(new IndexShape.Column(c.column(), c.collation(), c.descending()));
        }
        return new IndexShape(index.name(), columns, index.unique(), filter(table, index));
    }

    /** The rows a partial index holds (those its predicate is true for); null for a full index. */
    static Predicate<Object[]> filter(TableSchema table, IndexSchema index) {
        if (index.where() == null) {
            return null;
        }
        var predicate = ExpressionCompiler.predicate(ExpressionBinder.bind(index.where(), scopeOf(table)));
        return row -> predicate.test(row, Parameters.none());
    }

    /** The columns of a table's row, qualified by the table name. */
    public static Scope scopeOf(TableSchema table) {
        return Scope.of(table.name(), new PlanNode.TableScan(table, List.of()).columns());
    }
}
