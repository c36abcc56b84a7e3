package io.derive.engine.plan;

import io.derive.engine.plan.functions.Argument;
import io.derive.engine.plan.functions.ScalarFunction;
import io.derive.engine.types.Collation;
import io.derive.engine.types.SqlType;

import java.util.ArrayList;
import java.util.List;

/**
 * An expression after name resolution: columns are slots of the input row, functions are
 * resolved, and every node knows its type, its collation and whether it is deterministic.
 * {@link io.derive.engine.exec.expr.ExpressionCompiler} turns it into an evaluator once per statement.
 */
public sealed interface BoundExpr extends Argument {

    /** The conjuncts of a predicate ({@code a and b and c} → a, b, c); empty for null. */
    static List<BoundExpr> conjuncts(BoundExpr e) {
        List<BoundExpr> out = new ArrayList<>();
        flatten(e, out);
        return out;
    }

    private static void flatten(BoundExpr e, List<BoundExpr> out) {
        if (e == null) {
            return;
        }
        if (e instanceof BoundExpr.Call c && c.operator().equals("and")) {
            flatten(c.arguments().get(0), out);
            flatten(c.arguments().get(1), out);
        } else {
            out.add(e);
        }
    }

    /** The conjunction of the predicates, or null for none. */
    static BoundExpr and(List<BoundExpr> predicates) {
        BoundExpr result = null;
        for (BoundExpr p : predicates) {
            result = result == null ? p : new BoundExpr.Call("and", null, List.of(result, p),
                    SqlType.INTEGER, Collation.BINARY,
                    result.deterministic() && p.deterministic());
        }
        return result;
    }

    SqlType type();

    Collation collation();

    boolean deterministic();

    /** The value of input column {@code index}. */
    record ColumnSlot(int index, String name, SqlType type, Collation collation, boolean notNull) implements BoundExpr {
        @Override
        public boolean deterministic() {
            return true;
        }
    }

    record Constant(Object value, SqlType type) implements BoundExpr {
        @Override
        public boolean isLiteral() {
            return true;
        }

        @Override
        public Object literalValue() {
            return value;
        }

        @Override
        public Collation collation() {
            return Collation.BINARY;
        }

        @Override
        public boolean deterministic() {
            return true;
        }
    }

    /** A statement parameter: a 1-based {@code index}, or a {@code name} (then index is 0). */
    record ParameterRef(int index, String name) implements BoundExpr {
        @Override
        public SqlType type() {
            return SqlType.ANY;
        }

        @Override
        public Collation collation() {
            return Collation.BINARY;
        }

        @Override
        public boolean deterministic() {
            return true;
        }
    }

    /**
     * A column of an enclosing query's current row, read by a correlated subquery: {@code depth}
     * 0 is the row of the query that contains the subquery, 1 the row around that, and so on.
     */
    record OuterRef(int depth, int slot, String name, SqlType type, Collation collation) implements BoundExpr {
        @Override
        public boolean deterministic() {
            return true;
        }
    }

    /**
     * A subquery used as a value: {@link Kind#SCALAR} (first column of the first row, else NULL),
     * {@link Kind#EXISTS}, or {@link Kind#IN} (whether {@code operand} equals a value of its only
     * column, with SQL's NULL rules). Its plan reads the evaluating row through
     * {@link OuterRef}s when it is correlated.
     */
    record Subquery(Kind kind, PlanNode plan, BoundExpr operand, SqlType type, Collation collation,
                    boolean deterministic) implements BoundExpr {

        public enum Kind { SCALAR, EXISTS, IN }
    }

    /**
     * An operator or function application. {@code operator} is an infix/prefix operator of
     * {@link io.derive.engine.sql.ast.Expr.Binary}/{@code Unary}, or one of {@code isnull notnull
     * between in case cast collate}, or {@code fn} for a call of {@code function}.
     */
    record Call(String operator, ScalarFunction function, List<BoundExpr> arguments, SqlType type,
                Collation collation, boolean deterministic) implements BoundExpr {
        public Call {
            arguments = List.copyOf(arguments);
        }
    }
}
