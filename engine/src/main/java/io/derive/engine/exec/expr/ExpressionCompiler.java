package io.derive.engine.exec.expr;

import io.derive.engine.api.DeriveException;
import io.derive.engine.plan.BoundExpr;
import io.derive.engine.plan.functions.ScalarFunction;
import io.derive.engine.schema.Numeric;
import io.derive.engine.types.Collation;
import io.derive.engine.types.SqlType;
import io.derive.engine.types.TextValue;
import io.derive.engine.types.ValueOrder;

import java.util.List;

/**
 * Compiles a {@link BoundExpr} into an {@link Evaluator} tree of lambdas, once per statement,
 * so rows are evaluated without inspecting the expression again.
 */
public final class ExpressionCompiler {
    private static final Long TRUE = 1L;
    private static final Long FALSE = 0L;

    private ExpressionCompiler() {
    }

    public static Evaluator compile(BoundExpr expr) {
        if (expr instanceof BoundExpr.ColumnSlot slot) {
            int index = slot.index();
            return (row, p) -> row[index];
        }
        if (expr instanceof BoundExpr.Constant c) {
            Object value = c.value();
            return (row, p) -> value;
        }
        if (expr instanceof BoundExpr.ParameterRef ref) {
            int index = ref.index();
            String name = ref.name();
            return (row, p) -> p.get(index, name);
        }
        if (expr instanceof BoundExpr.OuterRef ref) {
            int depth = ref.depth();
            int slot = ref.slot();
            return (row, p) -> p.outer(depth)[slot];
        }
        if (expr instanceof BoundExpr.Subquery q) {
            return subquery(q);
        }
        return call((BoundExpr.Call) expr);
    }

    /** A predicate: true only when the expression's SQL truth is true (NULL is not). */
    public static java.util.function.BiPredicate<Object[], Parameters> predicate(BoundExpr expr) {
        Evaluator e = compile(expr);
        return (row, p) -> Boolean.TRUE.equals(Numeric.truth(e.eval(row, p)));
    }

    /**
     * A subquery runs with the evaluated row as its innermost enclosing row; one that reads no
     * enclosing row gives the same rows every time, so it runs once per compiled evaluator.
     */
    private static Evaluator subquery(BoundExpr.Subquery q) {
        boolean correlated = io.derive.engine.plan.PlanAnalysis.readsOuterRows(q.plan());
        Evaluator operand = q.operand() == null ? null : compile(q.operand());
        Collation collation = q.collation();
        java.util.function.BiFunction<Object[], Parameters, java.util.List<Object[]>> rows = correlated
                ? (row, p) -> p.withOuter(row).subqueryRows(q.plan())
                : new java.util.function.BiFunction<>() {
                    private java.util.List<Object[]> cached;

                    @Override
                    public java.util.List<Object[]> apply(Object[] row, Parameters p) {
                        if (cached == null) {
                            cached = p.withOuter(row).subqueryRows(q.plan());
                        }
                        return cached;
                    }
                };
        return switch (q.kind()) {
            case SCALAR -> (row, p) -> {
                java.util.List<Object[]> result = rows.apply(row, p);
                return result.isEmpty() ? null : result.get(0)[0];
            };
            case EXISTS -> (row, p) -> bool(!rows.apply(row, p).isEmpty());
            case IN -> (row, p) -> {
                Object x = operand.eval(row, p);
                java.util.List<Object[]> result = rows.apply(row, p);
                if (result.isEmpty()) {
                    return FALSE;
                }
                if (x == null) {
                    return null;
                }
                boolean sawNull = false;
                for (Object[] r : result) {
                    if (r[0] == null) {
                        sawNull = true;
                    } else if (ValueOrder.compare(x, r[0], collation) == 0) {
                        return TRUE;
                    }
                }
                return sawNull ? null : FALSE;
            };
        };
    }

    private static Evaluator call(BoundExpr.Call call) {
        List<BoundExpr> args = call.arguments();
        Evaluator a = args.isEmpty() ? null : compile(args.get(0));
        Evaluator b = args.size() < 2 ? null : compile(args.get(1));
        Collation collation = call.collation();
        return switch (call.operator()) {
            case "=" -> compare(a, b, collation, c -> c == 0);
            case "!=" -> compare(a, b, collation, c -> c != 0);
            case "<" -> compare(a, b, collation, c -> c < 0);
            case "<=" -> compare(a, b, collation, c -> c <= 0);
            case ">" -> compare(a, b, collation, c -> c > 0);
            case ">=" -> compare(a, b, collation, c -> c >= 0);
            case "is" -> (row, p) -> bool(ValueOrder.compare(a.eval(row, p), b.eval(row, p), collation) == 0);
            case "isnot" -> (row, p) -> bool(ValueOrder.compare(a.eval(row, p), b.eval(row, p), collation) != 0);
            case "and" -> (row, p) -> and(Numeric.truth(a.eval(row, p)), () -> Numeric.truth(b.eval(row, p)));
            case "or" -> (row, p) -> or(Numeric.truth(a.eval(row, p)), () -> Numeric.truth(b.eval(row, p)));
            case "not" -> (row, p) -> {
                Boolean t = Numeric.truth(a.eval(row, p));
                return t == null ? null : bool(!t);
            };
            case "isnull" -> (row, p) -> bool(a.eval(row, p) == null);
            case "notnull" -> (row, p) -> bool(a.eval(row, p) != null);
            case "+", "-", "*", "/", "%" -> arithmetic(call.operator(), a, b);
            case "&", "|", "<<", ">>" -> bits(call.operator(), a, b);
            case "~" -> (row, p) -> {
                Object v = a.eval(row, p);
                return v == null ? null : ~Numeric.of(v).longValue();
            };
            case "neg" -> (row, p) -> negate(a.eval(row, p));
            case "pos", "collate" -> a;
            case "||" -> (row, p) -> {
                Object x = a.eval(row, p);
                Object y = b.eval(row, p);
                return x == null || y == null ? null : TextValue.of(x) + TextValue.of(y);
            };
            case "like" -> like(a, b, args.size() > 2 ? compile(args.get(2)) : null);
            case "glob" -> (row, p) -> {
                Object x = a.eval(row, p);
                Object pattern = b.eval(row, p);
                return x == null || pattern == null ? null : bool(PatternMatch.glob(TextValue.of(x), TextValue.of(pattern)));
            };
            case "between" -> between(a, b, compile(args.get(2)), collation);
            case "in" -> in(a, args.subList(1, args.size()).stream().map(ExpressionCompiler::compile).toList(), collation);
            case "case" -> searchedCase(args.stream().map(ExpressionCompiler::compile).toList());
            case "simplecase" -> simpleCase(args.stream().map(ExpressionCompiler::compile).toList(), args.get(0).collation());
            case "cast" -> {
                SqlType target = call.type();
                yield (row, p) -> Casts.cast(a.eval(row, p), target);
            }
            case "affinity" -> {
                SqlType target = call.type();
                yield (row, p) -> Casts.affinity(a.eval(row, p), target);
            }
            case "fn" -> function(call.function(), args.stream().map(ExpressionCompiler::compile).toArray(Evaluator[]::new));
            default -> throw new DeriveException(DeriveException.INTERNAL, "no evaluator for operator " + call.operator());
        };
    }

    private interface Test {
        boolean holds(int comparison);
    }

    private static Evaluator compare(Evaluator a, Evaluator b, Collation collation, Test test) {
        return (row, p) -> {
            Object x = a.eval(row, p);
            if (x == null) {
                return null;
            }
            Object y = b.eval(row, p);
            return y == null ? null : bool(test.holds(ValueOrder.compare(x, y, collation)));
        };
    }

    private static Object and(Boolean x, java.util.function.Supplier<Boolean> y) {
        if (Boolean.FALSE.equals(x)) {
            return FALSE;
        }
        Boolean second = y.get();
        if (Boolean.FALSE.equals(second)) {
            return FALSE;
        }
        return x == null || second == null ? null : TRUE;
    }

    private static Object or(Boolean x, java.util.function.Supplier<Boolean> y) {
        if (Boolean.TRUE.equals(x)) {
            return TRUE;
        }
        Boolean second = y.get();
        if (Boolean.TRUE.equals(second)) {
            return TRUE;
        }
        return x == null || second == null ? null : FALSE;
    }

    private static Evaluator between(Evaluator a, Evaluator low, Evaluator high, Collation collation) {
        return (row, p) -> {
            Object x = a.eval(row, p);
            Object lo = low.eval(row, p);
            Object hi = high.eval(row, p);
            Boolean above = x == null || lo == null ? null : ValueOrder.compare(x, lo, collation) >= 0;
            Boolean below = x == null || hi == null ? null : ValueOrder.compare(x, hi, collation) <= 0;
            return and(above, () -> below);
        };
    }

    private static Evaluator in(Evaluator a, List<Evaluator> items, Collation collation) {
        return (row, p) -> {
            Object x = a.eval(row, p);
            if (items.isEmpty()) {
                return FALSE;
            }
            if (x == null) {
                return null;
            }
            boolean sawNull = false;
            for (Evaluator item : items) {
                Object y = item.eval(row, p);
                if (y == null) {
                    sawNull = true;
                } else if (ValueOrder.compare(x, y, collation) == 0) {
                    return TRUE;
                }
            }
            return sawNull ? null : FALSE;
        };
    }

    /** Arguments: [unused operand slot, cond1, result1, …, else]. */
    private static Evaluator searchedCase(List<Evaluator> args) {
        return (row, p) -> {
            for (int i = 1; i + 1 < args.size(); i += 2) {
                if (Boolean.TRUE.equals(Numeric.truth(args.get(i).eval(row, p)))) {
                    return args.get(i + 1).eval(row, p);
                }
            }
            return args.get(args.size() - 1).eval(row, p);
        };
    }

    /** Arguments: [operand, value1, result1, …, else]. */
    private static Evaluator simpleCase(List<Evaluator> args, Collation collation) {
        return (row, p) -> {
            Object operand = args.get(0).eval(row, p);
            for (int i = 1; i + 1 < args.size(); i += 2) {
                Object value = args.get(i).eval(row, p);
                if (operand != null && value != null && ValueOrder.compare(operand, value, collation) == 0) {
                    return args.get(i + 1).eval(row, p);
                }
            }
            return args.get(args.size() - 1).eval(row, p);
        };
    }

    /** {@code x like pattern [escape e]}: NULL when any operand is NULL; the escape must be one character. */
    private static Evaluator like(Evaluator x, Evaluator pattern, Evaluator escape) {
        return (row, p) -> {
            Object value = x.eval(row, p);
            Object shape = pattern.eval(row, p);
            Object esc = escape == null ? "" : escape.eval(row, p);
            if (value == null || shape == null || esc == null) {
                return null;
            }
            String e = TextValue.of(esc);
            if (escape != null && e.codePointCount(0, e.length()) != 1) {
                throw new DeriveException(DeriveException.DATA, "ESCAPE expression must be a single character");
            }
            return bool(PatternMatch.like(TextValue.of(value), TextValue.of(shape), escape == null ? -1 : e.charAt(0)));
        };
    }

    private static Evaluator function(ScalarFunction fn, Evaluator[] args) {
        return (row, p) -> {
            Object[] values = new Object[args.length];
            for (int i = 0; i < args.length; i++) {
                values[i] = args[i].eval(row, p);
                if (values[i] == null && fn.nullPropagating()) {
                    return null;
                }
            }
            return fn.implementation().apply(values);
        };
    }

    private static Evaluator arithmetic(String op, Evaluator a, Evaluator b) {
        return (row, p) -> {
            Object x = a.eval(row, p);
            Object y = b.eval(row, p);
            if (x == null || y == null) {
                return null;
            }
            return Arithmetic.apply(op, Numeric.of(x), Numeric.of(y));
        };
    }

    private static Evaluator bits(String op, Evaluator a, Evaluator b) {
        return (row, p) -> {
            Object x = a.eval(row, p);
            Object y = b.eval(row, p);
            if (x == null || y == null) {
                return null;
            }
            long l = Numeric.of(x).longValue();
            long r = Numeric.of(y).longValue();
            return switch (op) {
                case "&" -> l & r;
                case "|" -> l | r;
                case "<<" -> r >= 64 ? 0L : r <= -64 ? (l < 0 ? -1L : 0L) : r >= 0 ? l << r : l >> -r;
                default -> r >= 64 ? (l < 0 ? -1L : 0L) : r <= -64 ? 0L : r >= 0 ? l >> r : l << -r;
            };
        };
    }

    private static Object negate(Object v) {
        if (v == null) {
            return null;
        }
        Number n = Numeric.of(v);
        if (n instanceof Long l) {
            return l == Long.MIN_VALUE ? (Object) (-l.doubleValue()) : (Object) (-l);
        }
        if (n instanceof java.math.BigDecimal d) {
            return d.negate();
        }
        return -n.doubleValue();
    }

    private static Long bool(boolean b) {
        return b ? TRUE : FALSE;
    }
}
