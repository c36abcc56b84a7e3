package io.derive.engine.sql.ast;


import java.util.ArrayList;
import java.util.List;

/** A scalar expression as written. Every node knows its {@link SourceSpan}. */
public sealed interface Expr {

    SourceSpan span();

    /** A constant: Long, Double, String, byte[] or null. */
    record Literal(Object value, SourceSpan span) implements Expr {
    }

    /**
     * A parameter: {@code ?} and {@code ?NNN} have a 1-based {@code index} (and a null name);
     * {@code :name} has a name (and index 0).
     */
    record Parameter(int index, String name, SourceSpan span) implements Expr {
    }

    /** A column, optionally qualified by a table name or alias. */
    record ColumnRef(String table, String column, SourceSpan span) implements Expr {
    }

    /** Prefix operators: {@code -}, {@code +}, {@code ~}, {@code not}. */
    record Unary(String operator, Expr operand, SourceSpan span) implements Expr {
    }

    /**
     * Infix operators, lower-cased: {@code or and = != < <= > >= is isnot like glob || + - * / % & | << >>}.
     * {@code ==} is normalized to {@code =} and {@code <>} to {@code !=}.
     */
    record Binary(String operator, Expr left, Expr right, SourceSpan span) implements Expr {
    }

    record IsNull(Expr operand, boolean negated, SourceSpan span) implements Expr {
    }

    record Between(Expr operand, Expr low, Expr high, boolean negated, SourceSpan span) implements Expr {
    }

    record InList(Expr operand, List<Expr> items, boolean negated, SourceSpan span) implements Expr {
        public InList {
            items = List.copyOf(items);
        }
    }

    /** {@code name(args)}; {@code star} for {@code count(*)}. */
    record FunctionCall(String name, List<Expr> arguments, boolean distinct, boolean star, SourceSpan span) implements Expr {
        public FunctionCall {
            arguments = List.copyOf(arguments);
        }
    }

    record Cast(Expr operand, String typeName, SourceSpan span) implements Expr {
    }

    record Collate(Expr operand, String collation, SourceSpan span) implements Expr {
    }

    /** {@code case [operand] when … then … [else …] end}; {@code operand} and {@code otherwise} may be null. */
    record Case(Expr operand, List<When> whens, Expr otherwise, SourceSpan span) implements Expr {
        public Case {
            whens = List.copyOf(whens);
        }
    }

    record When(Expr condition, Expr result) {
    }

    /** {@code (select …)} used as a value: its first column of its first row, NULL when empty. */
    record ScalarSubquery(Select query, SourceSpan span) implements Expr {
    }

    /** {@code [not] exists (select …)}. */
    record Exists(Select query, boolean negated, SourceSpan span) implements Expr {
    }

    /** {@code x [not] in (select …)}, and {@code x [not] in t} for a table (as SQLite). */
    record InQuery(Expr operand, Select query, boolean negated, SourceSpan span) implements Expr {
    }

    /** The terms of an {@code and} chain, in order ({@code a and b and c} → a, b, c); empty for null. */
    static List<Expr> conjuncts(Expr e) {
        List<Expr> out = new ArrayList<>();
        addConjuncts(e, out);
        return out;
    }

    private static void addConjuncts(Expr e, List<Expr> out) {
        if (e instanceof Binary b && b.operator().equals("and")) {
            addConjuncts(b.left(), out);
            addConjuncts(b.right(), out);
        } else if (e != null) {
            out.add(e);
        }
    }

    /** The {@code and} chain of one or more terms, left-nested, at the first term's span. */
    static Expr and(List<Expr> terms) {
        Expr result = terms.get(0);
        for (int i = 1; i < terms.size(); i++) {
            result = new Binary("and", result, terms.get(i), result.span());
        }
        return result;
    }
}
