package io.derive.engine.sql.ast;


import java.util.List;

/**
 * A query: {@code [with …] select [distinct] items [from …] [where …] [group by … [having …]]
 * [union|intersect|except …]* [order by …] [limit … [offset …]]}.
 *
 * <p>A compound query is this select (its first member) followed by {@code compounds}; then
 * {@code orderBy}, {@code limit} and {@code offset} apply to the whole compound, as in SQLite.
 * The members in {@code compounds} have no {@code with}, order, limit or compounds of their own.
 *
 * @param with       common table expressions visible in the whole query, empty when none
 * @param recursive  whether {@code with recursive} was written
 * @param from       the source of the query (a table, a join tree…), or null without {@code from}
 * @param where      null when absent
 * @param groupBy    empty when absent
 * @param having     null when absent
 * @param compounds  the further members of a compound query, empty for a simple select
 * @param limit      null when absent
 * @param offset     null when absent
 */
public record Select(List<CommonTable> with, boolean recursive, boolean distinct, List<SelectItem> items,
                     TableRef from, Expr where, List<Expr> groupBy, Expr having, List<Compound> compounds,
                     List<OrderTerm> orderBy, Expr limit, Expr offset, SourceSpan span) {

    public Select {
        with = List.copyOf(with);
        items = List.copyOf(items);
        groupBy = List.copyOf(groupBy);
        compounds = List.copyOf(compounds);
        orderBy = List.copyOf(orderBy);
    }

    /** True when the select aggregates: it groups, or has a {@code having}. */
    public boolean isGrouped() {
        return !groupBy.isEmpty() || having != null;
    }

    /** {@code name [(columns)] as (query)} of a {@code with} clause. */
    public record CommonTable(String name, List<String> columns, Select query, SourceSpan span) {
        public CommonTable {
            columns = List.copyOf(columns);
        }
    }

    public enum SetOperator { UNION, UNION_ALL, INTERSECT, EXCEPT }

    /** One further member of a compound query and the operator joining it to what precedes. */
    public record Compound(SetOperator operator, Select member, SourceSpan span) {
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

    /** A source in {@code from}. */
    public sealed interface TableRef {
        SourceSpan span();
    }

    /** A table, view or common table by name, with its index clause. */
    public record NamedTable(QualifiedName name, String alias, IndexHint hint, SourceSpan span) implements TableRef {
        public NamedTable(QualifiedName name, String alias, SourceSpan span) {
            this(name, alias, IndexHint.ANY, span);
        }
    }

    /** A table-valued function call; {@code lateral} when written {@code lateral f(…)}. */
    public record TableFunction(String name, List<Expr> arguments, String alias, boolean lateral,
                                SourceSpan span) implements TableRef {
        public TableFunction {
            arguments = List.copyOf(arguments);
        }
    }

    /** {@code (select …) [as] alias}; {@code lateral} when written {@code lateral (select …)}. */
    public record Subquery(Select query, String alias, boolean lateral, SourceSpan span) implements TableRef {
    }

    public enum JoinKind { INNER, LEFT, RIGHT, FULL, CROSS }

    /**
     * {@code left [natural] kind join right [on condition | using (columns)]}; a comma in
     * {@code from} is a {@link JoinKind#CROSS} join.
     *
     * @param condition null without {@code on}
     * @param using     empty without {@code using}
     */
    public record Join(TableRef left, JoinKind kind, boolean natural, TableRef right, Expr condition,
                       List<String> using, SourceSpan span) implements TableRef {
        public Join {
            using = List.copyOf(using);
        }
    }

    /** {@code nullsFirst} is null when not written (then NULLs sort first ascending, last descending). */
    public record OrderTerm(Expr expr, boolean descending, Boolean nullsFirst, SourceSpan span) {
    }
}
