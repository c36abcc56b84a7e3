package io.derive.engine.mv;

import io.derive.engine.api.DeriveException;
import io.derive.engine.plan.BoundExpr;
import io.derive.engine.plan.OutputColumn;
import io.derive.engine.plan.PlanNode;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.spi.TableShape;
import io.derive.engine.sql.ast.Select;

import java.util.ArrayList;
import java.util.List;

/**
 * What registration learns of a bound body: its source, the create-time gates (semantics §3) and
 * the backing key. This first version recognises the per-row projection shape; other bodies are
 * reported as not supported yet, naming what they use.
 *
 * @param source     the one table the body reads
 * @param predicate  its where clause over source rows, or null
 * @param outputs    its outputs over source rows
 * @param columns    its output columns
 * @param key        the backing's physical key: the output positions carrying the source key
 */
record BodyAnalysis(TableSchema source, BoundExpr predicate, List<BoundExpr> outputs, List<OutputColumn> columns,
                    List<TableShape.KeyPart> key) {

    static BodyAnalysis of(String view, Select body, PlanNode plan) {
        String cannot = "materialized view '" + view + "' cannot be materialized: ";
        if (body.from() == null || body.from() instanceof Select.TableFunction) {
            throw definition(cannot + "reads no source table", body);
        }
        String unsupported = unsupportedConstruct(body, plan);
        if (unsupported != null) {
            throw new DeriveException(DeriveException.FEATURE_NOT_SUPPORTED, "materialized view '" + view
                    + "': a body with " + unsupported + " is not supported yet", body.span().line(), body.span().column());
        }
        PlanNode.Project project = (PlanNode.Project) plan;
        BoundExpr predicate = null;
        PlanNode input = project.input();
        if (input instanceof PlanNode.Filter filter) {
            predicate = filter.predicate();
            input = filter.input();
        }
        TableSchema source = ((PlanNode.TableScan) input).table();
        if (source.isMaintained()) {
            throw new DeriveException(DeriveException.FEATURE_NOT_SUPPORTED, "materialized view '" + view
                    + "': a body over another materialized view ('" + source.qualifiedName() + "') is not supported yet",
                    body.from().span().line(), body.from().span().column());
        }
        List<BoundExpr> outputs = project.expressions();
        for (int i = 0; i < outputs.size(); i++) {
            if (!outputs.get(i).deterministic()) {
                throw definition(cannot + "non-deterministic expression column '" + project.columns().get(i).name() + "'", body);
            }
            if (hasParameter(outputs.get(i))) {
                throw definition("materialized view '" + view + "': a body cannot use parameters", body);
            }
        }
        if (predicate != null && (!predicate.deterministic() || hasParameter(predicate))) {
            throw definition(cannot + "non-deterministic or parameterized where clause", body);
        }
        List<TableShape.KeyPart> key = new ArrayList<>();
        for (TableShape.KeyPart sourceKey : source.primaryKey()) {
            int position = carriedAt(outputs, sourceKey.column());
            if (position < 0) {
                throw definition(cannot + "no provable unique key (the body must select every primary-key column of '"
                        + source.qualifiedName() + "')", body);
            }
            key.add(new TableShape.KeyPart(position, sourceKey.descending()));
        }
        return new BodyAnalysis(source, predicate, outputs, project.columns(), key);
    }

    /** What the body uses beyond a filtered projection of one table, or null when it uses nothing more. */
    private static String unsupportedConstruct(Select body, PlanNode plan) {
        if (body.distinct()) {
            return "distinct";
        }
        if (!body.orderBy().isEmpty()) {
            return "order by";
        }
        if (body.limit() != null) {
            return "limit";
        }
        if (!body.compounds().isEmpty()) {
            return "a set operation";
        }
        if (!body.with().isEmpty()) {
            return "a common table expression";
        }
        if (body.from() instanceof Select.Join) {
            return "a join";
        }
        if (body.from() instanceof Select.Subquery) {
            return "a derived table";
        }
        PlanNode input = plan instanceof PlanNode.Project p ? p.input() : plan;
        if (input instanceof PlanNode.Filter f) {
            input = f.input();
        }
        if (!(plan instanceof PlanNode.Project) || !(input instanceof PlanNode.TableScan)) {
            return body.isGrouped() || input instanceof PlanNode.Aggregate ? "aggregation" : "this shape (a view or subquery source)";
        }
        for (BoundExpr e : ((PlanNode.Project) plan).expressions()) {
            if (e instanceof BoundExpr.Subquery) {
                return "a subquery";
            }
        }
        return null;
    }

    private static int carriedAt(List<BoundExpr> outputs, int sourceColumn) {
        for (int i = 0; i < outputs.size(); i++) {
            if (outputs.get(i) instanceof BoundExpr.ColumnSlot slot && slot.index() == sourceColumn) {
                return i;
            }
        }
        return -1;
    }

    private static boolean hasParameter(BoundExpr e) {
        if (e instanceof BoundExpr.Call c) {
            return c.arguments().stream().anyMatch(BodyAnalysis::hasParameter);
        }
        return e instanceof BoundExpr.ParameterRef;
    }

    private static DeriveException definition(String message, Select body) {
        return new DeriveException(DeriveException.INVALID_DEFINITION, message, body.span().line(), body.span().column());
    }
}
