package io.derive.engine.sql.ast;

import io.derive.engine.sql.SourceSpan;

import java.util.List;

/**
 * A query: {@code select [distinct] items from source [where] [order by] [limit [offset]]}.
 *
 * @param from   the single source of the query, or null for a select without {@code from}
 * @param where  null when absent
 * @param limit  null when absent
 * @param offset null when absent
 */
public record Select(boolean distinct, List<SelectItem> items, TableRef from, Expr where,
                     List<OrderTerm> orderBy, Expr limit, Expr offset, SourceSpan span) {

    public Select {
        items = List.copyOf(items);
        orderBy = List.copyOf(orderBy);
    }

    /** One entry of the select list: {@code *}, {@code t.*}, or an expression with an optional alias. */
    public sealed interface SelectItem {
        SourceSpan span();
    }

    /** {@code *} or {@code table.*} (then {@code table} is not null). */
    public record Star(String table, SourceSpan span) implements SelectItem {
    }

    public record Column(Expr expr, String alias, SourceSpan span) implements SelectItem {
    }

    /** A source in {@code from}: a table (or view) by name, or a table-valued function call. */
    public sealed interface TableRef {
        SourceSpan span();

        String alias();
    }

    public record NamedTable(QualifiedName name, String alias, SourceSpan span) implements TableRef {
    }

    public record TableFunction(String name, List<Expr> arguments, String alias, SourceSpan span) implements TableRef {
        public TableFunction {
            arguments = List.copyOf(arguments);
        }
    }

    /** {@code nullsFirst} is null when not written (then NULLs sort first ascending, last descending). */
    public record OrderTerm(Expr expr, boolean descending, Boolean nullsFirst, SourceSpan span) {
    }
}
