package io.derive.engine.exec.expr;

import java.math.BigDecimal;
import java.math.MathContext;

/**
 * SQLite's arithmetic on numbers: integer operations stay integer (overflow turns real),
 * integer division truncates, division or remainder by zero is NULL; a real operand makes the
 * operation real; numeric (BigDecimal) operands stay exact unless a real is involved.
 */
final class Arithmetic {
    private Arithmetic() {
    }

    static Object apply(String op, Number x, Number y) {
        if (x instanceof Long l && y instanceof Long r) {
            return integer(op, l, r);
        }
        if ((x instanceof BigDecimal || y instanceof BigDecimal) && !(x instanceof Double) && !(y instanceof Double)) {
            return exact(op, decimal(x), decimal(y));
        }
        return real(op, x.doubleValue(), y.doubleValue());
    }

    private static Object integer(String op, long l, long r) {
        try {
            return switch (op) {
                case "+" -> Math.addExact(l, r);
                case "-" -> Math.subtractExact(l, r);
                case "*" -> Math.multiplyExact(l, r);
                case "/" -> r == 0 ? null : (l == Long.MIN_VALUE && r == -1 ? (Object) (-(double) l) : (Object) (l / r));
                default -> r == 0 ? null : (Object) (r == -1 ? 0L : l % r);
            };
        } catch (ArithmeticException overflow) {
            return real(op, l, r);
        }
    }

    private static Object real(String op, double l, double r) {
        return switch (op) {
            case "+" -> l + r;
            case "-" -> l - r;
            case "*" -> l * r;
            case "/" -> r == 0.0 ? null : l / r;
            default -> {
                long li = (long) l;
                long ri = (long) r;
                yield ri == 0 ? null : (double) (li % ri);
            }
        };
    }

    private static Object exact(String op, BigDecimal l, BigDecimal r) {
        return switch (op) {
            case "+" -> l.add(r);
            case "-" -> l.subtract(r);
            case "*" -> l.multiply(r);
            case "/" -> r.signum() == 0 ? null : l.divide(r, MathContext.DECIMAL128);
            default -> r.signum() == 0 ? null : l.remainder(r);
        };
    }

    private static BigDecimal decimal(Number n) {
        return n instanceof BigDecimal d ? d : BigDecimal.valueOf(n.longValue());
    }
}
