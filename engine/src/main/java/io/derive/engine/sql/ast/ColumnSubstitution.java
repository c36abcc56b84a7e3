package io.derive.engine.sql.ast;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Rewrites an expression by replacing its column references: each {@link Expr.ColumnRef} is
 * replaced by what {@code replacement} returns for it. Subqueries are left as they are: their
 * names resolve in their own scopes.
 */
public final class ColumnSubstitution {
    private ColumnSubstitution() {
    }

    public static Expr apply(Expr e, Function<Expr.ColumnRef, Expr> replacement) {
        if (e == null) {
            return null;
        }
        if (e instanceof Expr.ColumnRef ref) {
            return replacement.apply(ref);
        }
        if (e instanceof Expr.Unary u) {
            return new Expr.Unary(u.operator(), apply(u.operand(), replacement), u.span());
        }
        if (e instanceof Expr.Binary b) {
            return new Expr.Binary(b.operator(), apply(b.left(), replacement), apply(b.right(), replacement), b.span());
        }
        if (e instanceof Expr.IsNull n) {
            return new Expr.IsNull(apply(n.operand(), replacement), n.negated(), n.span());
        }
        if (e instanceof Expr.Between b) {
            return new Expr.Between(apply(b.operand(), replacement), apply(b.low(), replacement),
                    apply(b.high(), replacement), b.negated(), b.span());
        }
        if (e instanceof Expr.InList in) {
            return new Expr.InList(apply(in.operand(), replacement), all(in.items(), replacement), in.negated(), in.span());
        }
        if (e instanceof Expr.FunctionCall f) {
            return new Expr.FunctionCall(f.name(), all(f.arguments(), replacement), f.distinct(), f.star(), f.span());
        }
        if (e instanceof Expr.Cast c) {
            return new Expr.Cast(apply(c.operand(), replacement), c.typeName(), c.span());
        }
        if (e instanceof Expr.Collate c) {
            return new Expr.Collate(apply(c.operand(), replacement), c.collation(), c.span());
        }
        if (e instanceof Expr.Case c) {
            List<Expr.When> whens = new ArrayList<>();
            for (Expr.When w : c.whens()) {
                whens.add(new Expr.When(apply(w.condition(), replacement), apply(w.result(), replacement)));
            }
            return new Expr.Case(apply(c.operand(), replacement), whens, apply(c.otherwise(), replacement), c.span());
        }
        if (e instanceof Expr.InQuery q) {
            return new Expr.InQuery(apply(q.operand(), replacement), q.query(), q.negated(), q.span());
        }
        return e;
    }

    private static List<Expr> all(List<Expr> list, Function<Expr.ColumnRef, Expr> replacement) {
        List<Expr> out = new ArrayList<>();
        for (Expr e : list) {
            out.add(apply(e, replacement));
        }
        return out;
    }
}
