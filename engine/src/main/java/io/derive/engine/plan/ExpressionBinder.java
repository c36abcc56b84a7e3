package io.derive.engine.plan;

import io.derive.engine.api.DeriveException;
import io.derive.engine.schema.Collation;
import io.derive.engine.schema.SqlType;
import io.derive.engine.sql.ast.Expr;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** Resolves an {@link Expr} against a {@link Scope} into a {@link BoundExpr}. */
public final class ExpressionBinder {
    private static final Set<String> COMPARISONS = Set.of("=", "!=", "<", "<=", ">", ">=", "is", "isnot");
    private static final Set<String> AGGREGATES = Set.of("count", "sum", "total", "avg", "min", "max", "group_concat");

    private ExpressionBinder() {
    }

    public static BoundExpr bind(Expr expr, Scope scope) {
        if (expr instanceof Expr.Literal lit) {
            return new BoundExpr.Constant(lit.value(), typeOf(lit.value()));
        }
        if (expr instanceof Expr.Parameter p) {
            return new BoundExpr.ParameterRef(p.index(), p.name());
        }
        if (expr instanceof Expr.ColumnRef ref) {
            Scope.Entry e = scope.resolve(ref);
            OutputColumn c = e.column();
            return new BoundExpr.ColumnSlot(e.slot(), c.name(), c.type(), c.collation(), c.notNull());
        }
        if (expr instanceof Expr.Unary u) {
            return unary(u, scope);
        }
        if (expr instanceof Expr.Binary b) {
            return binary(b, scope);
        }
        if (expr instanceof Expr.IsNull n) {
            return call(n.negated() ? "notnull" : "isnull", List.of(bind(n.operand(), scope)), SqlType.INTEGER);
        }
        if (expr instanceof Expr.Between b) {
            return between(b, scope);
        }
        if (expr instanceof Expr.InList in) {
            return inList(in, scope);
        }
        if (expr instanceof Expr.FunctionCall f) {
            return function(f, scope);
        }
        if (expr instanceof Expr.Cast c) {
            SqlType target = SqlType.fromName(c.typeName());
            if (target == null) {
                throw new DeriveException(DeriveException.UNDEFINED_OBJECT, "no such type: " + c.typeName(),
                        c.span().line(), c.span().column());
            }
            return call("cast", List.of(bind(c.operand(), scope)), target);
        }
        if (expr instanceof Expr.Collate c) {
            BoundExpr operand = bind(c.operand(), scope);
            Collation collation = sited(() -> Collation.named(c.collation()), c);
            return new BoundExpr.Call("collate", null, List.of(operand), operand.type(), collation, operand.deterministic());
        }
        return caseExpr((Expr.Case) expr, scope);
    }

    private static BoundExpr between(Expr.Between b, Scope scope) {
        BoundExpr operand = bind(b.operand(), scope);
        BoundExpr low = withAffinity(bind(b.low(), scope), operand);
        BoundExpr high = withAffinity(bind(b.high(), scope), operand);
        BoundExpr between = new BoundExpr.Call("between", null, List.of(operand, low, high), SqlType.INTEGER,
                comparisonCollation(operand, low), deterministic(List.of(operand, low, high)));
        return b.negated() ? call("not", List.of(between), SqlType.INTEGER) : between;
    }

    private static BoundExpr inList(Expr.InList in, Scope scope) {
        BoundExpr operand = bind(in.operand(), scope);
        List<BoundExpr> args = new ArrayList<>();
        args.add(operand);
        for (Expr item : in.items()) {
            args.add(withAffinity(bind(item, scope), operand));
        }
        BoundExpr inCall = new BoundExpr.Call("in", null, args, SqlType.INTEGER, operand.collation(), deterministic(args));
        return in.negated() ? call("not", List.of(inCall), SqlType.INTEGER) : inCall;
    }

    private static BoundExpr unary(Expr.Unary u, Scope scope) {
        BoundExpr operand = bind(u.operand(), scope);
        String op = u.operator().equals("-") ? "neg" : u.operator().equals("+") ? "pos" : u.operator();
        SqlType type = switch (op) {
            case "not", "~" -> SqlType.INTEGER;
            default -> operand.type();
        };
        return call(op, List.of(operand), type);
    }

    private static BoundExpr binary(Expr.Binary b, Scope scope) {
        BoundExpr left = bind(b.left(), scope);
        BoundExpr right = bind(b.right(), scope);
        String op = b.operator();
        if (COMPARISONS.contains(op)) {
            right = withAffinity(right, left);
            left = withAffinity(left, right);
            return new BoundExpr.Call(op, null, List.of(left, right), SqlType.INTEGER,
                    comparisonCollation(left, right), left.deterministic() && right.deterministic());
        }
        SqlType type = switch (op) {
            case "||" -> SqlType.TEXT;
            case "and", "or", "like", "glob", "&", "|", "<<", ">>" -> SqlType.INTEGER;
            default -> arithmeticType(left.type(), right.type());
        };
        return call(op, List.of(left, right), type);
    }

    private static BoundExpr function(Expr.FunctionCall f, Scope scope) {
        if (AGGREGATES.contains(f.name()) && FunctionRegistry.lookup(f.name()).isEmpty()) {
            throw new DeriveException(DeriveException.FEATURE_NOT_SUPPORTED,
                    "aggregate function " + f.name() + "() is not supported yet", f.span().line(), f.span().column());
        }
        ScalarFunction fn = FunctionRegistry.lookup(f.name()).orElseThrow(() -> new DeriveException(
                DeriveException.UNDEFINED_OBJECT, "no such function: " + f.name(), f.span().line(), f.span().column()));
        int n = f.arguments().size();
        if (f.star() || f.distinct() || n < fn.minArguments() || n > fn.maxArguments()) {
            throw new DeriveException(DeriveException.SYNTAX, "wrong number of arguments to function " + f.name() + "()",
                    f.span().line(), f.span().column());
        }
        List<BoundExpr> args = new ArrayList<>();
        for (Expr a : f.arguments()) {
            args.add(bind(a, scope));
        }
        SqlType type = fn.resultType() == SqlType.ANY && !args.isEmpty() ? args.get(0).type() : fn.resultType();
        return new BoundExpr.Call("fn", fn, args, type, args.isEmpty() ? Collation.BINARY : args.get(0).collation(),
                fn.deterministic() && deterministic(args));
    }

    private static BoundExpr caseExpr(Expr.Case c, Scope scope) {
        List<BoundExpr> args = new ArrayList<>();
        BoundExpr operand = c.operand() == null ? null : bind(c.operand(), scope);
        args.add(operand == null ? new BoundExpr.Constant(null, SqlType.ANY) : operand);
        SqlType type = null;
        for (Expr.When w : c.whens()) {
            BoundExpr condition = bind(w.condition(), scope);
            args.add(operand == null ? condition : withAffinity(condition, operand));
            BoundExpr result = bind(w.result(), scope);
            args.add(result);
            type = type == null || type == result.type() ? result.type() : SqlType.ANY;
        }
        BoundExpr otherwise = c.otherwise() == null ? new BoundExpr.Constant(null, SqlType.ANY) : bind(c.otherwise(), scope);
        args.add(otherwise);
        String op = operand == null ? "case" : "simplecase";
        return new BoundExpr.Call(op, null, args, type, Collation.BINARY, deterministic(args));
    }

    /**
     * SQLite's comparison affinity: a constant or parameter compared with a numeric column is
     * converted to the column's type when it can be, so {@code k = '5'} finds integer 5.
     */
    static BoundExpr withAffinity(BoundExpr value, BoundExpr other) {
        boolean numericOther = other instanceof BoundExpr.ColumnSlot
                && (other.type() == SqlType.INTEGER || other.type() == SqlType.REAL || other.type() == SqlType.NUMERIC);
        boolean free = value instanceof BoundExpr.Constant || value instanceof BoundExpr.ParameterRef;
        if (numericOther && free) {
            return new BoundExpr.Call("affinity", null, List.of(value), other.type(), Collation.BINARY, true);
        }
        return value;
    }

    /** SQLite's rule: an explicit collate (left first), else a column's collation (left first), else binary. */
    static Collation comparisonCollation(BoundExpr left, BoundExpr right) {
        if (isExplicit(left)) {
            return left.collation();
        }
        if (isExplicit(right)) {
            return right.collation();
        }
        if (left instanceof BoundExpr.ColumnSlot) {
            return left.collation();
        }
        if (right instanceof BoundExpr.ColumnSlot) {
            return right.collation();
        }
        return Collation.BINARY;
    }

    private static boolean isExplicit(BoundExpr e) {
        return e instanceof BoundExpr.Call c && c.operator().equals("collate");
    }

    private static SqlType arithmeticType(SqlType a, SqlType b) {
        if (a == SqlType.INTEGER && b == SqlType.INTEGER) {
            return SqlType.INTEGER;
        }
        if ((a == SqlType.REAL || a == SqlType.INTEGER) && (b == SqlType.REAL || b == SqlType.INTEGER)) {
            return SqlType.REAL;
        }
        return SqlType.ANY;
    }

    private static BoundExpr call(String op, List<BoundExpr> args, SqlType type) {
        Collation collation = args.isEmpty() ? Collation.BINARY : args.get(0).collation();
        return new BoundExpr.Call(op, null, args, type, collation, deterministic(args));
    }

    private static boolean deterministic(List<BoundExpr> args) {
        for (BoundExpr a : args) {
            if (!a.deterministic()) {
                return false;
            }
        }
        return true;
    }

    static SqlType typeOf(Object value) {
        if (value instanceof Long) {
            return SqlType.INTEGER;
        }
        if (value instanceof Double) {
            return SqlType.REAL;
        }
        if (value instanceof String) {
            return SqlType.TEXT;
        }
        if (value instanceof byte[]) {
            return SqlType.BLOB;
        }
        return SqlType.ANY;
    }

    private static <T> T sited(java.util.function.Supplier<T> action, Expr at) {
        try {
            return action.get();
        } catch (DeriveException e) {
            throw e.at(at.span().line(), at.span().column());
        }
    }

    /** The display name SQLite gives an unaliased result column: a column's name, else the text. */
    static String defaultName(Expr e, String sql) {
        if (e instanceof Expr.ColumnRef ref) {
            return ref.column();
        }
        return e.span().text(sql);
    }
}
