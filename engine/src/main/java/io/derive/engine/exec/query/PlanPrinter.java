package io.derive.engine.exec.query;

import io.derive.engine.plan.AggregateCall;
import io.derive.engine.plan.BoundExpr;
import io.derive.engine.plan.PlanNode;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/** Renders a plan for {@code explain}: one line per operator, inputs indented under it. */
public final class PlanPrinter {
    private final List<String> lines = new ArrayList<>();

    public static List<String> print(PlanNode plan) {
        PlanPrinter printer = new PlanPrinter();
        printer.node(plan, 0);
        return printer.lines;
    }

    private void node(PlanNode node, int depth) {
        String indent = "  ".repeat(depth);
        if (node instanceof PlanNode.TableScan scan) {
            String table = scan.table().qualifiedName();
            String range = scan.isRange()
                    ? " range of " + keyColumns(scan, scan.keyPrefix().size() + 1).get(scan.keyPrefix().size()) : "";
            lines.add(indent + (scan.keyPrefix().isEmpty() ? "scan " + table
                    : "seek " + table + " on key prefix (" + String.join(", ", keyColumns(scan, scan.keyPrefix().size())) + ")")
                    + range);
        } else if (node instanceof PlanNode.IndexScan i) {
            lines.add(indent + "seek " + i.table().qualifiedName() + " by index " + i.index()
                    + (i.prefix().isEmpty() ? "" : " on " + i.prefix().size() + " column(s)")
                    + (i.isRange() ? " with a range" : ""));
        } else if (node instanceof PlanNode.FunctionScan f) {
            lines.add(indent + "table function " + f.function().sqlName());
        } else if (node instanceof PlanNode.SingleRow) {
            lines.add(indent + "single row");
        } else if (node instanceof PlanNode.Filter f) {
            lines.add(indent + "filter " + expression(f.predicate()));
            node(f.input(), depth + 1);
        } else if (node instanceof PlanNode.Project p) {
            lines.add(indent + "project " + p.columns().stream().map(c -> c.name()).collect(Collectors.joining(", ")));
            node(p.input(), depth + 1);
        } else if (node instanceof PlanNode.Distinct d) {
            lines.add(indent + "distinct");
            node(d.input(), depth + 1);
        } else if (node instanceof PlanNode.Sort s) {
            lines.add(indent + "sort " + s.keys().stream()
                    .map(k -> "#" + k.column() + (k.descending() ? " desc" : "") + (k.nullsFirst() ? " nulls first" : " nulls last"))
                    .collect(Collectors.joining(", ")));
            node(s.input(), depth + 1);
        } else if (node instanceof PlanNode.Limit l) {
            lines.add(indent + "limit");
            node(l.input(), depth + 1);
        } else if (node instanceof PlanNode.Join j) {
            String how = j.lookup() ? "index lookup" : j.leftKeys().isEmpty() ? "nested loop" : "hash";
            lines.add(indent + j.type().name().toLowerCase() + " join (" + how + ")"
                    + (j.leftKeys().isEmpty() ? "" : " on " + j.leftKeys().size() + " key(s)")
                    + (j.condition() == null ? "" : " where " + expression(j.condition())));
            node(j.left(), depth + 1);
            node(j.right(), depth + 1);
        } else if (node instanceof PlanNode.Apply a) {
            lines.add(indent + (a.outer() ? "left " : "") + "lateral apply");
            node(a.left(), depth + 1);
            node(a.right(), depth + 1);
        } else if (node instanceof PlanNode.Aggregate a) {
            lines.add(indent + "aggregate by " + a.groupKeys().size() + " key(s): "
                    + a.aggregates().stream().map(AggregateCall::function).collect(Collectors.joining(", ")));
            node(a.input(), depth + 1);
        } else if (node instanceof PlanNode.SetOperation s) {
            lines.add(indent + s.operator().name().toLowerCase().replace('_', ' '));
            node(s.left(), depth + 1);
            node(s.right(), depth + 1);
        } else if (node instanceof PlanNode.RecursiveUnion r) {
            lines.add(indent + "recursive union" + (r.all() ? " all" : ""));
            node(r.anchor(), depth + 1);
            node(r.step(), depth + 1);
        } else if (node instanceof PlanNode.WorkingTable) {
            lines.add(indent + "working table");
        }
    }

    private static List<String> keyColumns(PlanNode.TableScan scan, int n) {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            names.add(scan.table().columns().get(scan.table().primaryKey().get(i).column()).name());
        }
        return names;
    }

    private static String expression(BoundExpr e) {
        if (e instanceof BoundExpr.ColumnSlot s) {
            return s.name();
        }
        if (e instanceof BoundExpr.Constant c) {
            return String.valueOf(c.value());
        }
        if (e instanceof BoundExpr.ParameterRef p) {
            return p.name() != null ? ":" + p.name() : "?" + p.index();
        }
        if (e instanceof BoundExpr.OuterRef o) {
            return "outer." + o.name();
        }
        if (e instanceof BoundExpr.Subquery q) {
            return q.kind().name().toLowerCase() + " subquery";
        }
        BoundExpr.Call c = (BoundExpr.Call) e;
        List<String> args = c.arguments().stream().map(PlanPrinter::expression).toList();
        String op = c.operator().equals("fn") ? c.function().name() : c.operator();
        if (args.size() == 2 && !c.operator().equals("fn")) {
            return "(" + args.get(0) + " " + op + " " + args.get(1) + ")";
        }
        return op + "(" + String.join(", ", args) + ")";
    }
}
