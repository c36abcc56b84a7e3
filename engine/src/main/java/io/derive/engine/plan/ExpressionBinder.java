package io.derive.engine.plan;

import io.derive.engine.api.DeriveException;
import io.derive.engine.plan.functions.FunctionRegistry;
import io.derive.engine.plan.functions.ScalarFunction;
import io.derive.engine.sql.ast.Expr;
import io.derive.engine.types.Collation;
import io.derive.engine.types.SqlType;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** Resolves an {@link Expr} against a {@link Scope} into a {@link BoundExpr}. */
public final class ExpressionBinder {
    static final Set<String> COMPARISONS = Set.of("=", "!=", "<", "<=", ">", ">=", "is", "isnot");

    /** As the parser's limit: binding and evaluating deeper trees would exhaust a 1 MB stack. */
    private static final int MAX_DEPTH = 500;

    private final QueryBinder queries;
    private final List<Scope> scopes;
    private final AggregateCollector aggregates;
    private int depth;

    /** Binds an expression that may not contain subqueries or aggregates, over one row scope. */
    public static BoundExpr bind(Expr expr, Scope scope) {
        return new ExpressionBinder(null, List.of(scope), null).bind(expr);
    }

    /**
     * @param queries    binds subqueries; null where subqueries are not allowed
     * @param scopes     the scope of the evaluated row first, then those of the enclosing queries
     * @param aggregates collects aggregate calls; null where aggregates are not allowed
     */
    ExpressionBinder(QueryBinder queries, List<Scope> scopes, AggregateCollector aggregates) {
        this.queries = queries;
        this.scopes = List.copyOf(scopes);
        this.aggregates = aggregates;
    }

    public BoundExpr bind(Expr expr) {
        // A long operator chain (a + b + … ) parses without recursion but nests this deep.
        if (++depth > MAX_DEPTH) {
            depth = 0;
            throw new DeriveException(DeriveException.SYNTAX, "expression tree is too large (maximum depth "
                    + MAX_DEPTH + ")", expr.span().line(), expr.span().column());
        }
        try {
            return bindNode(expr);
        } finally {
            depth = Math.max(0, depth - 1);
        }
    }

    private BoundExpr bindNode(Expr expr) {
        if (expr instanceof Expr.Literal lit) {
            return new BoundExpr.Constant(lit.value(), typeOf(lit.value()));
        }
        if (expr instanceof Expr.Parameter p) {
            return new BoundExpr.ParameterRef(p.index(), p.name());
        }
        if (expr instanceof Expr.ColumnRef ref) {
            return column(ref);
        }
        if (expr instanceof Expr.ScalarSubquery q) {
            return subquery(BoundExpr.Subquery.Kind.SCALAR, q.query(), null, q.span());
        }
        if (expr instanceof Expr.Exists q) {
            BoundExpr exists = subquery(BoundExpr.Subquery.Kind.EXISTS, q.query(), null, q.span());
            return q.negated() ? call("not", List.of(exists), SqlType.INTEGER) : exists;
        }
        if (expr instanceof Expr.InQuery q) {
            BoundExpr in = subquery(BoundExpr.Subquery.Kind.IN, q.query(), bind(q.operand()), q.span());
            return q.negated() ? call("not", List.of(in), SqlType.INTEGER) : in;
        }
        if (expr instanceof Expr.Unary u) {
            return unary(u);
        }
        if (expr instanceof Expr.Binary b) {
            return binary(b);
        }
        if (expr instanceof Expr.IsNull n) {
            return call(n.negated() ? "notnull" : "isnull", List.of(bind(n.operand())), SqlType.INTEGER);
        }
        if (expr instanceof Expr.Between b) {
            return between(b);
        }
        if (expr instanceof Expr.InList in) {
            return inList(in);
        }
        if (expr instanceof Expr.FunctionCall f) {
            return function(f);
        }
        if (expr instanceof Expr.Cast c) {
            SqlType target = SqlType.fromName(c.typeName());
            if (target == null) {
                throw new DeriveException(DeriveException.UNDEFINED_OBJECT, "no such type: " + c.typeName(),
                        c.span().line(), c.span().column());
            }
            return call("cast", List.of(bind(c.operand())), target);
        }
        if (expr instanceof Expr.Collate c) {
            BoundExpr operand = bind(c.operand());
            Collation collation = sited(() -> Collation.named(c.collation()), c);
            return new BoundExpr.Call("collate", null, List.of(operand), operand.type(), collation, operand.deterministic());
        }
        return caseExpr((Expr.Case) expr);
    }

    private BoundExpr between(Expr.Between b) {
        BoundExpr operand = bind(b.operand());
        BoundExpr low = withAffinity(bind(b.low()), operand);
        BoundExpr high = withAffinity(bind(b.high()), operand);
        BoundExpr between = new BoundExpr.Call("between", null, List.of(operand, low, high), SqlType.INTEGER,
                comparisonCollation(operand, low), deterministic(List.of(operand, low, high)));
        return b.negated() ? call("not", List.of(between), SqlType.INTEGER) : between;
    }

    private BoundExpr inList(Expr.InList in) {
        BoundExpr operand = bind(in.operand());
        List<BoundExpr> args = new ArrayList<>();
        args.add(operand);
        for (Expr item : in.items()) {
            args.add(withAffinity(bind(item), operand));
        }
        BoundExpr inCall = new BoundExpr.Call("in", null, args, SqlType.INTEGER, operand.collation(), deterministic(args));
        return in.negated() ? call("not", List.of(inCall), SqlType.INTEGER) : inCall;
    }

    private BoundExpr unary(Expr.Unary u) {
        BoundExpr operand = bind(u.operand());
        String op = u.operator().equals("-") ? "neg" : u.operator().equals("+") ? "pos" : u.operator();
        SqlType type = switch (op) {
            case "not", "~" -> SqlType.INTEGER;
            default -> operand.type();
        };
        return call(op, List.of(operand), type);
    }

    private BoundExpr binary(Expr.Binary b) {
        BoundExpr left = bind(b.left());
        BoundExpr right = bind(b.right());
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

    private BoundExpr function(Expr.FunctionCall f) {
        if (AggregateCall.isAggregate(f.name(), f.arguments().size(), f.star()) && !hasScalarForm(f)) {
            return aggregate(f);
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
            args.add(bind(a));
        }
        if (f.name().equals("like") || f.name().equals("glob")) {
            // like(p, x) is x like p: the operator's evaluator serves both spellings.
            List<BoundExpr> operands = new ArrayList<>(List.of(args.get(1), args.get(0)));
            operands.addAll(args.subList(2, args.size()));
            return call(f.name(), operands, SqlType.INTEGER);
        }
        SqlType type = fn.resultTypeFor(args);
        return new BoundExpr.Call("fn", fn, args, type, args.isEmpty() ? Collation.BINARY : args.get(0).collation(),
                fn.isDeterministicFor(args) && deterministic(args));
    }

    /** An aggregate call: its arguments bind over the aggregate's input row, without nested aggregates. */
    private BoundExpr aggregate(Expr.FunctionCall f) {
        if (aggregates == null) {
            throw new DeriveException(DeriveException.SYNTAX, "misuse of aggregate function " + f.name() + "()",
                    f.span().line(), f.span().column());
        }
        String name = f.name().toLowerCase(java.util.Locale.ROOT);
        int n = f.arguments().size();
        boolean arityOk = f.star() ? n == 0 : name.equals("group_concat") ? n == 1 || n == 2 : n == 1;
        if (!arityOk || (f.distinct() && n != 1)) {
            throw new DeriveException(DeriveException.SYNTAX, "wrong number of arguments to function " + f.name() + "()",
                    f.span().line(), f.span().column());
        }
        ExpressionBinder inner = new ExpressionBinder(queries, scopes, null);
        List<BoundExpr> args = new ArrayList<>();
        for (Expr a : f.arguments()) {
            args.add(inner.bind(a));
        }
        SqlType type = switch (name) {
            case "count" -> SqlType.INTEGER;
            case "total", "avg" -> SqlType.REAL;
            case "group_concat" -> SqlType.TEXT;
            // SQLite sums text and blobs as numbers: integer when every value reads as an integer, else real.
            case "sum" -> args.get(0).type() == SqlType.TEXT || args.get(0).type() == SqlType.BLOB
                    ? SqlType.ANY : args.get(0).type();
            default -> args.get(0).type();
        };
        Collation collation = args.isEmpty() ? Collation.BINARY : args.get(0).collation();
        return aggregates.add(new AggregateCall(name, args, f.distinct(), type, collation));
    }

    private BoundExpr column(Expr.ColumnRef ref) {
        for (int depth = 0; depth < scopes.size(); depth++) {
            java.util.Optional<Scope.Entry> found = scopes.get(depth).find(ref);
            if (found.isPresent()) {
                Scope.Entry e = found.get();
                OutputColumn c = e.column();
                if (queries != null) {
                    queries.names().column(ref, depth, e);
                }
                return depth == 0
                        ? new BoundExpr.ColumnSlot(e.slot(), c.name(), c.type(), c.collation(), c.notNull())
                        : new BoundExpr.OuterRef(depth - 1, e.slot(), c.name(), c.type(), c.collation());
            }
        }
        throw Scope.noSuchColumn(ref);
    }

    /**
     * The stored column whose name {@code ref} reads, when it reads a column by that column's
     * own name (not {@code rowid} standing for a key column); null otherwise. {@code ref} has
     * already been bound, so it resolves.
     */
    ColumnOrigin originOf(Expr.ColumnRef ref) {
        for (Scope scope : scopes) {
            java.util.Optional<Scope.Entry> found = scope.find(ref);
            if (found.isPresent()) {
                OutputColumn c = found.get().column();
                return c.name().equalsIgnoreCase(ref.column()) ? c.origin() : null;
            }
        }
        return null;
    }

    private BoundExpr subquery(BoundExpr.Subquery.Kind kind, io.derive.engine.sql.ast.Select query, BoundExpr operand,
                               io.derive.engine.sql.ast.SourceSpan span) {
        if (queries == null) {
            throw new DeriveException(DeriveException.FEATURE_NOT_SUPPORTED, "subqueries are not allowed here",
                    span.line(), span.column());
        }
        PlanNode plan = queries.bind(query, scopes);
        if (kind != BoundExpr.Subquery.Kind.EXISTS && plan.columns().size() != 1) {
            throw new DeriveException(DeriveException.SYNTAX, "sub-select returns " + plan.columns().size()
                    + " columns - expected 1", span.line(), span.column());
        }
        OutputColumn first = plan.columns().get(0);
        SqlType type = kind == BoundExpr.Subquery.Kind.SCALAR ? first.type() : SqlType.INTEGER;
        Collation collation = operand != null ? comparisonCollation(operand, new BoundExpr.ColumnSlot(0, first.name(),
                first.type(), first.collation(), false)) : first.collation();
        boolean deterministic = PlanAnalysis.deterministic(plan) && (operand == null || operand.deterministic());
        return new BoundExpr.Subquery(kind, plan, operand, type, collation, deterministic);
    }

    /** min/max with two or more arguments are scalar functions; with one they are aggregates. */
    private static boolean hasScalarForm(Expr.FunctionCall f) {
        return FunctionRegistry.lookup(f.name())
                .filter(fn -> !f.star() && !f.distinct() && f.arguments().size() >= fn.minArguments())
                .isPresent();
    }

    private BoundExpr caseExpr(Expr.Case c) {
        List<BoundExpr> args = new ArrayList<>();
        BoundExpr operand = c.operand() == null ? null : bind(c.operand());
        args.add(operand == null ? new BoundExpr.Constant(null, SqlType.ANY) : operand);
        SqlType type = null;
        for (Expr.When w : c.whens()) {
            BoundExpr condition = bind(w.condition());
            args.add(operand == null ? condition : withAffinity(condition, operand));
            BoundExpr result = bind(w.result());
            args.add(result);
            type = type == null || type == result.type() ? result.type() : SqlType.ANY;
        }
        BoundExpr otherwise = c.otherwise() == null ? new BoundExpr.Constant(null, SqlType.ANY) : bind(c.otherwise());
        args.add(otherwise);
        String op = operand == null ? "case" : "simplecase";
        return new BoundExpr.Call(op, null, args, type, Collation.BINARY, deterministic(args));
    }

    /**
     * SQLite's comparison affinity: a constant or parameter compared with a numeric (or date,
     * time, timestamp, text) column is converted to the column's type when it can be, so
     * {@code k = '5'} finds integer 5 and {@code d = '2024-01-31'} finds that date. As in SQLite,
     * a column keeps its affinity under {@code collate}, and {@code cast(x as t)} has t's.
     */
    static BoundExpr withAffinity(BoundExpr value, BoundExpr other) {
        SqlType affinity = affinity(other);
        boolean typedOther = affinity == SqlType.INTEGER || affinity == SqlType.REAL || affinity == SqlType.NUMERIC
                || affinity == SqlType.DATE || affinity == SqlType.TIME || affinity == SqlType.TIMESTAMP
                || affinity == SqlType.TEXT;
        boolean free = value instanceof BoundExpr.Constant || value instanceof BoundExpr.ParameterRef;
        if (typedOther && free) {
            return new BoundExpr.Call("affinity", null, List.of(value), affinity, Collation.BINARY, true);
        }
        return value;
    }

    /** The affinity SQLite gives {@code e}: a column's type, through {@code collate}; a cast's type; else none (null). */
    private static SqlType affinity(BoundExpr e) {
        if (e instanceof BoundExpr.ColumnSlot || e instanceof BoundExpr.OuterRef) {
            return e.type();
        }
        if (e instanceof BoundExpr.Call c && c.operator().equals("collate")) {
            return affinity(c.arguments().get(0));
        }
        if (e instanceof BoundExpr.Call c && c.operator().equals("cast")) {
            return c.type();
        }
        return null;
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
