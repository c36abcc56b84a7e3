package io.derive.engine.mv;

import io.derive.engine.api.DeriveException;
import io.derive.engine.exec.context.MaterializedViewOperations.WriteThroughRewrite;
import io.derive.engine.plan.BoundExpr;
import io.derive.engine.schema.Catalog;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.sql.ast.ColumnSubstitution;
import io.derive.engine.sql.ast.Expr;
import io.derive.engine.sql.ast.IndexHint;
import io.derive.engine.sql.ast.QualifiedName;
import io.derive.engine.sql.ast.Select;
import io.derive.engine.sql.ast.SourceSpan;
import io.derive.engine.sql.ast.Statement;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Write-through of user DML naming a maintained table (semantics §4, read-only): a projection
 * body's MV is written by rewriting the statement to its single source. Pass-through and renamed
 * columns are writable, and so are {@linkplain InvertibleColumn invertible} computed ones; other
 * computed columns are not ({@code non-invertible}). An insert gets the body filter's equality
 * constants filled in; updates and deletes reach only rows in the MV.
 */
final class WriteThrough {
    private final TableSchema mv;
    private final TableSchema source;
    private final Select body;
    /** MV column (lower case) → the body's expression for it, over the source's unqualified columns. */
    private final Map<String, Expr> columns = new LinkedHashMap<>();
    /** MV column (lower case) → source column name, for pass-through columns only. */
    private final Map<String, String> passThrough = new HashMap<>();
    /** MV column (lower case) → how a value written to it is written to its source column, for invertible columns only. */
    private final Map<String, InvertibleColumn> invertible = new HashMap<>();

    private WriteThrough(TableSchema mv, TableSchema source, List<BoundExpr> outputs, Select body) {
        this.mv = mv;
        this.source = source;
        this.body = body;
        List<Expr> items = itemExpressions(body, source);
        for (int i = 0; i < mv.columns().size(); i++) {
            String name = mv.columns().get(i).name().toLowerCase(Locale.ROOT);
            columns.put(name, unqualified(items.get(i)));
            if (outputs.get(i) instanceof BoundExpr.ColumnSlot slot) {
                passThrough.put(name, source.columns().get(slot.index()).name());
            } else {
                InvertibleColumn.of(mv, i, source, outputs.get(i)).ifPresent(c -> invertible.put(name, c));
            }
        }
    }

    /** The rewrite for writes to {@code mv}, or the error saying why it cannot be written. */
    static WriteThrough of(TableSchema mv, Catalog catalog, SourceSpan at) {
        String name = "'" + mv.qualifiedName() + "'";
        if (mv.derivation().stale()) {
            throw readOnly("cannot write through materialized view " + name + ": it is stale", at);
        }
        Optional<List<BoundExpr>> outputs = MaintenanceArm.of(mv).rowProjection();
        if (outputs.isEmpty()) {
            throw readOnly("cannot write through materialized view " + name + ": its body is not a projection of one table", at);
        }
        Select body = mv.derivation().body();
        Select.NamedTable from = (Select.NamedTable) body.from();
        TableSchema source = catalog.table(from.name().schema(), from.name().name()).orElseThrow(() ->
                readOnly("cannot write through materialized view " + name + ": its source no longer exists", at));
        if (source.isMaintained()) {
            throw readOnly("cannot write through materialized view " + name + ": it reads a materialized view ('"
                    + source.qualifiedName() + "')", at);
        }
        return new WriteThrough(mv, source, outputs.get(), body);
    }

    /** The source a rewritten statement writes to. */
    TableSchema source() {
        return source;
    }

    /** The body's filter over source columns, which an inserted row must satisfy; null when none. */
    private Expr filter() {
        return body.where() == null ? null : unqualified(body.where());
    }

    WriteThroughRewrite insert(Statement.Insert insert) {
        List<String> targets = insert.columns().isEmpty()
                ? mv.columns().stream().map(c -> c.name()).toList() : insert.columns();
        List<String> sourceColumns = new ArrayList<>();
        List<UnaryOperator<Object>> writeBacks = new ArrayList<>();
        for (String column : targets) {
            sourceColumns.add(writable(column, insert.span()));
            writeBacks.add(writeBack(column));
        }
        Map<String, Expr> filled = equalityConstants(sourceColumns);
        sourceColumns.addAll(filled.keySet());
        writeBacks.addAll(Collections.nCopies(filled.size(), UnaryOperator.identity()));
        List<List<Expr>> rows = null;
        if (insert.rows() != null) {
            rows = new ArrayList<>();
            for (List<Expr> values : insert.rows()) {
                List<Expr> extended = new ArrayList<>(values);
                extended.addAll(filled.values());
                rows.add(extended);
            }
        } else if (!filled.isEmpty()) {
            throw new DeriveException(DeriveException.FEATURE_NOT_SUPPORTED, "insert … select through materialized view '"
                    + mv.qualifiedName() + "' that must fill in its filter's columns is not supported yet",
                    insert.span().line(), insert.span().column());
        }
        Statement.Insert rewritten = new Statement.Insert(target(insert.table()), sourceColumns, rows, insert.select(),
                insert.onConflict(), insert.upsert(), returning(insert.returning()), insert.span());
        return new WriteThroughRewrite(rewritten, filter(), writeBacks);
    }

    WriteThroughRewrite update(Statement.Update update) {
        List<Statement.Assignment> assignments = new ArrayList<>();
        List<UnaryOperator<Object>> writeBacks = new ArrayList<>();
        for (Statement.Assignment a : update.assignments()) {
            assignments.add(new Statement.Assignment(writable(a.column(), a.span()), toSource(a.value()), a.span()));
            writeBacks.add(writeBack(a.column()));
        }
        // An index clause names an index of the view, not of its source: the planner chooses.
        Statement.Update rewritten = new Statement.Update(target(update.table()), IndexHint.ANY, assignments,
                inView(update.where()), update.onConflict(), returning(update.returning()), update.span());
        return new WriteThroughRewrite(rewritten, null, writeBacks);
    }

    WriteThroughRewrite delete(Statement.Delete delete) {
        Statement.Delete rewritten = new Statement.Delete(target(delete.table()), IndexHint.ANY, inView(delete.where()),
                returning(delete.returning()), delete.span());
        return new WriteThroughRewrite(rewritten, null, List.of());
    }

    /** The source column an MV column writes to; a computed column that is not invertible cannot be written. */
    private String writable(String column, SourceSpan at) {
        String key = column.toLowerCase(Locale.ROOT);
        if (!columns.containsKey(key)) {
            throw new DeriveException(DeriveException.UNDEFINED_OBJECT, "materialized view " + mv.name()
                    + " has no column named " + column, at.line(), at.column());
        }
        if (invertible.containsKey(key)) {
            return invertible.get(key).sourceColumn();
        }
        String target = passThrough.get(key);
        if (target == null) {
            throw readOnly("cannot write through materialized view '" + mv.qualifiedName() + "': column '" + column
                    + "' is computed (non-invertible)", at);
        }
        return target;
    }

    /** How a value written to a writable MV column becomes the value written to its source column. */
    private UnaryOperator<Object> writeBack(String column) {
        InvertibleColumn inverted = invertible.get(column.toLowerCase(Locale.ROOT));
        return inverted != null ? inverted : UnaryOperator.identity();
    }

    /** For columns the insert does not give, the constants the body's filter equates them with. */
    private Map<String, Expr> equalityConstants(List<String> given) {
        Map<String, Expr> filled = new LinkedHashMap<>();
        for (Expr conjunct : Expr.conjuncts(filter())) {
            if (conjunct instanceof Expr.Binary b && b.operator().equals("=")) {
                Expr.ColumnRef column = b.left() instanceof Expr.ColumnRef l ? l : b.right() instanceof Expr.ColumnRef r ? r : null;
                Expr value = column == b.left() ? b.right() : b.left();
                if (column != null && value instanceof Expr.Literal
                        && given.stream().noneMatch(g -> g.equalsIgnoreCase(column.column()))
                        && filled.keySet().stream().noneMatch(g -> g.equalsIgnoreCase(column.column()))) {
                    filled.put(column.column(), value);
                }
            }
        }
        return filled;
    }

    /** A predicate over MV columns as one over source columns, also requiring the row to be in the MV. */
    private Expr inView(Expr where) {
        Expr mapped = toSource(where);
        Expr filter = filter();
        if (filter == null) {
            return mapped;
        }
        return mapped == null ? filter : new Expr.Binary("and", filter, mapped, mapped.span());
    }

    private Expr toSource(Expr e) {
        return ColumnSubstitution.apply(e, ref -> {
            boolean ours = ref.table() == null || ref.table().equalsIgnoreCase(mv.name());
            Expr replacement = ours ? columns.get(ref.column().toLowerCase(Locale.ROOT)) : null;
            return replacement != null ? replacement : ref;
        });
    }

    private List<Select.SelectItem> returning(List<Select.SelectItem> items) {
        List<Select.SelectItem> out = new ArrayList<>();
        for (Select.SelectItem item : items) {
            if (item instanceof Select.Column c) {
                String alias = c.alias() != null ? c.alias()
                        : c.expr() instanceof Expr.ColumnRef ref ? ref.column() : null;
                out.add(new Select.Column(toSource(c.expr()), alias, c.span()));
            } else {
                for (String name : columns.keySet()) {
                    Expr e = columns.get(name);
                    out.add(new Select.Column(e, mv.columns().get(indexOf(name)).name(), item.span()));
                }
            }
        }
        return out;
    }

    private int indexOf(String lowerName) {
        return new ArrayList<>(columns.keySet()).indexOf(lowerName);
    }

    private QualifiedName target(QualifiedName written) {
        return new QualifiedName(source.schema(), source.name(), written.span());
    }

    /** The body's select items as expressions, {@code *} expanded into the source's visible columns. */
    private static List<Expr> itemExpressions(Select body, TableSchema source) {
        List<Expr> items = new ArrayList<>();
        for (Select.SelectItem item : body.items()) {
            if (item instanceof Select.Column c) {
                items.add(c.expr());
            } else {
                source.columns().stream().filter(c -> !c.hidden())
                        .forEach(c -> items.add(new Expr.ColumnRef(null, c.name(), item.span())));
            }
        }
        return items;
    }

    /** The expression with table qualifiers dropped: the rewritten statement names the source directly. */
    private static Expr unqualified(Expr e) {
        return ColumnSubstitution.apply(e, ref -> ref.table() == null ? ref : new Expr.ColumnRef(null, ref.column(), ref.span()));
    }


    private static DeriveException readOnly(String message, SourceSpan at) {
        return at.error(DeriveException.READ_ONLY, message);
    }
}
