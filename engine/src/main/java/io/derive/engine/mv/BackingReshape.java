package io.derive.engine.mv;

import io.derive.engine.api.DeriveException;
import io.derive.engine.exec.ddl.TableReshape;
import io.derive.engine.plan.OutputColumn;
import io.derive.engine.schema.ColumnSchema;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.sql.ast.SourceSpan;
import io.derive.engine.txn.Transaction;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * A maintained table whose body publishes a shifted shape, put on storage of that shape in place
 * (semantics §2): on {@code refresh} of an MV a source change made stale, on a body swap
 * ({@code alter table mv set maintained as …}), on attaching a body to a plain table
 * ({@code alter table t set maintained as …}; not the table form, whose declared shape is the
 * point), and when a source's {@code drop not null} lets a carried column hold NULL. What may
 * shift: columns added or dropped at the end, a trailing column renamed, and a column's type,
 * collation or nullability (as {@code alter column} may change a source's; a plain table's kept
 * columns keep their declaration). What may not: the key (its columns, positions and directions),
 * the order of the columns (a reorder reads as a rename of columns that keep existing), and a
 * drop or rename of a column in a table with constraints, which may read it: those are
 * {@code output shape changed incompatibly}; and on refresh, a column list given at create time
 * that no longer fits the body's column count, which needs {@code drop and recreate}.
 *
 * <p>The catalog does not keep a create-time column list; like the rename rules
 * ({@code RenamePropagation}), a table whose column names are the body's own reads as having
 * none. Rows are carried over by position, coerced to the new types (a value that no longer fits
 * a non-key column is carried as NULL); the caller then re-derives the contents by a keyed diff,
 * so what the rows become is the body's, and only the key of a row must survive the reshape.
 */
final class BackingReshape {
    private BackingReshape() {
    }

    /**
     * The columns {@code mv} takes for {@code body} on refresh: its own names where the body's
     * column count is unchanged (a create-time list still fits), else the body's.
     *
     * @throws DeriveException when the shape cannot shift in place (sited at {@code at})
     */
    static List<ColumnSchema> forRefresh(TableSchema mv, BodyAnalysis body, SourceSpan at) {
        List<String> names = new ArrayList<>();
        List<OutputColumn> outputs = body.columns();
        int common = Math.min(outputs.size(), mv.columns().size());
        for (int i = 0; i < outputs.size(); i++) {
            names.add(outputs.size() == mv.columns().size() ? mv.columns().get(i).name() : outputs.get(i).name());
        }
        if (outputs.size() != mv.columns().size()) {
            for (int i = 0; i < common; i++) {
                if (!outputs.get(i).name().equalsIgnoreCase(mv.columns().get(i).name())) {
                    throw refuse("materialized view '" + mv.qualifiedName() + "': its column list no longer fits the body,"
                            + " which now produces " + outputs.size() + " columns: drop and recreate it", at);
                }
            }
        }
        return columns(mv, body, names, at);
    }

    /**
     * The columns {@code mv} takes for a swapped {@code body}, whose outputs are named
     * {@code names} (the statement's list, else the body's own).
     *
     * @throws DeriveException {@code output shape changed incompatibly}, sited at {@code at}
     */
    static List<ColumnSchema> forSwap(TableSchema mv, BodyAnalysis body, List<String> names, SourceSpan at) {
        List<String> published = new ArrayList<>();
        for (int i = 0; i < body.columns().size(); i++) {
            published.add(names.isEmpty() ? body.columns().get(i).name() : names.get(i));
        }
        return columns(mv, body, published, at);
    }

    /**
     * The columns a plain {@code table} takes to attach {@code body}, whose outputs (named
     * {@code names}, else the body's own) differ from the declared columns only at the end
     * (semantics §2). A column both keep under its name keeps its declaration, defaults
     * included, which must agree with the body's output as in the table form; an added or
     * renamed trailing column is the body's.
     *
     * @throws DeriveException {@code output shape changed incompatibly}, or the table form's
     *         mismatch for a kept column, sited at {@code at}
     */
    static List<ColumnSchema> forAttach(TableSchema table, BodyAnalysis body, List<String> names, SourceSpan at) {
        Attachment.checkDeclaredKey(table, at);
        List<ColumnSchema> columns = new ArrayList<>(forSwap(table, body, names, at));
        for (int i = 0; i < Math.min(columns.size(), table.columns().size()); i++) {
            if (columns.get(i).name().equalsIgnoreCase(table.columns().get(i).name())) {
                Attachment.checkColumn(table, i, body.columns().get(i), at);
                columns.set(i, table.columns().get(i));
            }
        }
        return columns;
    }

    private static List<ColumnSchema> columns(TableSchema mv, BodyAnalysis body, List<String> names, SourceSpan at) {
        String incompatible = "cannot reshape '" + mv.qualifiedName() + "': output shape changed incompatibly (";
        if (!body.key().equals(mv.primaryKey())) {
            throw refuse(incompatible + "its key changed; drop and recreate it)", at);
        }
        Set<String> old = new HashSet<>();
        mv.columns().forEach(c -> old.add(c.name().toLowerCase(Locale.ROOT)));
        Set<String> seen = new HashSet<>();
        int common = Math.min(names.size(), mv.columns().size());
        List<ColumnSchema> columns = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            String name = names.get(i);
            if (!seen.add(name.toLowerCase(Locale.ROOT))) {
                throw refuse(incompatible + "duplicate column name: " + name + ")", at);
            }
            boolean renamed = i < common && !name.equalsIgnoreCase(mv.columns().get(i).name());
            // Renaming a column into a name another column has is a reorder; only the trailing column may take a new name.
            if (renamed && (i != common - 1 || old.contains(name.toLowerCase(Locale.ROOT)))
                    || i >= common && old.contains(name.toLowerCase(Locale.ROOT))) {
                throw refuse(incompatible + "column " + (i + 1) + " '" + name + "' "
                        + (renamed && !old.contains(name.toLowerCase(Locale.ROOT)) ? "renames '" + mv.columns().get(i).name()
                        + "', which is not the last column" : "moves a column the table has") + "; columns may only be added,"
                        + " dropped or renamed at the end)", at);
            }
            OutputColumn output = body.columns().get(i);
            boolean key = Attachment.isKeyColumn(mv, i);
            columns.add(new ColumnSchema(name, output.type(), output.collation(), output.notNull() || key, null));
        }
        boolean renamesLast = common > 0 && !names.get(common - 1).equalsIgnoreCase(mv.columns().get(common - 1).name());
        if ((names.size() < mv.columns().size() || renamesLast)
                && !mv.constraints().equals(io.derive.engine.schema.TableConstraints.none())) {
            throw refuse(incompatible + "it declares constraints, which may read the columns a reshape drops or"
                    + " renames; drop and recreate it)", at);
        }
        return columns;
    }

    /**
     * {@code mv} on storage of {@code columns}, inside the transaction (the previous incarnation is
     * released at commit, the new one on rollback).
     */
    static TableSchema reshaped(Transaction txn, TableSchema mv, List<ColumnSchema> columns, SourceSpan at) {
        TableSchema after = new TableSchema(mv.schema(), mv.name(), columns, mv.primaryKey(), mv.module(), mv.storage(),
                mv.derivation(), mv.constraints(), null, mv.tags());
        int carried = Math.min(columns.size(), mv.columns().size());
        return TableReshape.reshaped(txn, mv, after, row -> {
            Object[] next = new Object[columns.size()];
            for (int i = 0; i < carried; i++) {
                next[i] = carried(after, i, row[i], at);
            }
            return next;
        }, at);
    }

    private static Object carried(TableSchema after, int column, Object value, SourceSpan at) {
        try {
            return after.columns().get(column).type().coerce(value, after.columnLabel(column));
        } catch (DeriveException doesNotFit) {
            if (Attachment.isKeyColumn(after, column)) {
                throw refuse("cannot reshape '" + after.qualifiedName() + "': a stored key value of column '"
                        + after.columns().get(column).name() + "' does not fit its new type; drop and recreate it", at);
            }
            return null;
        }
    }

    /**
     * The columns of {@code mv} with every non-key column its body now derives nullable made
     * nullable; empty when none is (semantics §5: a source's {@code alter column … drop not null}
     * keeps the body's shape, but the backing will hold NULL there and must not publish NOT NULL).
     * Key columns stay NOT NULL: they never hold NULL, and maintenance refuses a row that would
     * store one (§3).
     */
    static Optional<List<ColumnSchema>> relaxed(TableSchema mv, BodyAnalysis body) {
        List<ColumnSchema> columns = new ArrayList<>(mv.columns());
        boolean changed = false;
        for (int i = 0; i < columns.size(); i++) {
            ColumnSchema c = columns.get(i);
            if (c.notNull() && !body.columns().get(i).notNull() && !Attachment.isKeyColumn(mv, i)) {
                columns.set(i, c.with(c.type(), c.collation(), false, c.defaultValue()));
                changed = true;
            }
        }
        return changed ? Optional.of(columns) : Optional.empty();
    }

    /**
     * {@code mv} on storage whose columns are {@code relaxed} ({@link #relaxed}), inside the
     * transaction. Only nullability differs, so no stored value changes and nothing can fail
     * that would need siting in the statement.
     */
    static TableSchema relaxedInPlace(Transaction txn, TableSchema mv, List<ColumnSchema> relaxed) {
        return reshaped(txn, mv, relaxed, new SourceSpan(0, 0, 0, 0));
    }

    /** The columns both shapes have whose type or collation differs between {@code before} and {@code after}. */
    static List<Integer> retyped(TableSchema before, TableSchema after) {
        List<Integer> columns = new ArrayList<>();
        for (int i = 0; i < Math.min(before.columns().size(), after.columns().size()); i++) {
            ColumnSchema a = before.columns().get(i);
            ColumnSchema b = after.columns().get(i);
            if (a.type() != b.type() || a.collation() != b.collation()) {
                columns.add(i);
            }
        }
        return columns;
    }


    private static DeriveException refuse(String message, SourceSpan at) {
        return at.error(DeriveException.INVALID_DEFINITION, message);
    }
}
