package io.derive.engine.exec.query;

import io.derive.engine.api.DeriveException;
import io.derive.engine.plan.AggregateCall;
import io.derive.engine.schema.Numeric;
import io.derive.engine.types.Collation;
import io.derive.engine.types.TextValue;
import io.derive.engine.types.ValueOrder;

import java.math.BigDecimal;
import java.util.TreeSet;

/** The running state of one aggregate over one group, with SQLite's semantics for each function. */
abstract class Accumulator {

    /** Adds one input row's argument values (none for {@code count(*)}). */
    abstract void add(Object[] values);

    abstract Object result();

    static Accumulator of(AggregateCall call) {
        Accumulator plain = switch (call.function()) {
            case "count" -> call.arguments().isEmpty() ? new CountRows() : new Count();
            case "sum" -> new Sum(false);
            case "total" -> new Sum(true);
            case "avg" -> new Average();
            case "min" -> new Extreme(call.collation(), -1);
            case "max" -> new Extreme(call.collation(), 1);
            case "group_concat" -> new Concat();
            default -> new AnyValue();
        };
        return call.distinct() ? new Distinct(plain, call.collation()) : plain;
    }

    /** {@code f(distinct x)}: each distinct non-NULL value reaches the aggregate once. */
    private static final class Distinct extends Accumulator {
        private final Accumulator inner;
        private final TreeSet<Object> seen;

        Distinct(Accumulator inner, Collation collation) {
            this.inner = inner;
            this.seen = new TreeSet<>((a, b) -> ValueOrder.compare(a, b, collation));
        }

        @Override
        void add(Object[] values) {
            if (values[0] != null && seen.add(values[0])) {
                inner.add(values);
            }
        }

        @Override
        Object result() {
            return inner.result();
        }
    }

    private static final class CountRows extends Accumulator {
        private long n;

        @Override
        void add(Object[] values) {
            n++;
        }

        @Override
        Object result() {
            return n;
        }
    }

    private static final class Count extends Accumulator {
        private long n;

        @Override
        void add(Object[] values) {
            if (values[0] != null) {
                n++;
            }
        }

        @Override
        Object result() {
            return n;
        }
    }

    /**
     * {@code sum}: integer while every input is an integer (overflow is an error, as in SQLite),
     * real once a real appears, NULL over no non-NULL input; {@code total}: always real, 0.0 when empty.
     */
    private static final class Sum extends Accumulator {
        /** SQLite's numeric affinity takes such a text as an integer (blanks around it allowed). */
        private static final java.util.regex.Pattern INTEGER_TEXT = java.util.regex.Pattern.compile("\\s*[+-]?\\d+\\s*");

        private final boolean total;
        private long integer;
        private double real;
        private BigDecimal exact;
        private boolean isReal;
        private boolean any;

        Sum(boolean total) {
            this.total = total;
        }

        @Override
        void add(Object[] values) {
            Object v = values[0];
            if (v == null) {
                return;
            }
            any = true;
            Number n = Numeric.of(v);
            if (!(v instanceof Number) && !(v instanceof Boolean) && !isIntegerText(v, n) && !isReal) {
                // SQLite: an input that is neither an integer nor NULL makes the sum real; a
                // text that reads wholly as an integer counts as one (sum('1') is 1).
                real = exact != null ? exact.doubleValue() : integer;
                isReal = true;
            }
            if (n instanceof Long l && !isReal && exact == null) {
                try {
                    integer = Math.addExact(integer, l);
                } catch (ArithmeticException e) {
                    if (!total) {
                        throw new DeriveException(DeriveException.DATA, "integer overflow");
                    }
                    isReal = true;
                    real = (double) integer + l;
                }
                return;
            }
            if (n instanceof BigDecimal d && !isReal) {
                exact = (exact == null ? BigDecimal.valueOf(integer) : exact).add(d);
                return;
            }
            if (!isReal) {
                real = exact != null ? exact.doubleValue() : integer;
                isReal = true;
            }
            real += n.doubleValue();
        }

        private static boolean isIntegerText(Object v, Number n) {
            return v instanceof String text && n instanceof Long && INTEGER_TEXT.matcher(text).matches();
        }

        @Override
        Object result() {
            if (total) {
                return isReal ? real : exact != null ? exact.doubleValue() : (double) integer;
            }
            if (!any) {
                return null;
            }
            return isReal ? (Object) real : exact != null ? exact : (Object) integer;
        }
    }

    private static final class Average extends Accumulator {
        private final Sum sum = new Sum(true);
        private long n;

        @Override
        void add(Object[] values) {
            if (values[0] != null) {
                sum.add(values);
                n++;
            }
        }

        @Override
        Object result() {
            return n == 0 ? null : (Double) sum.result() / n;
        }
    }

    /** {@code min} ({@code sign} −1) and {@code max} (+1), ignoring NULLs. */
    private static final class Extreme extends Accumulator {
        private final Collation collation;
        private final int sign;
        private Object best;

        Extreme(Collation collation, int sign) {
            this.collation = collation;
            this.sign = sign;
        }

        @Override
        void add(Object[] values) {
            Object v = values[0];
            if (v != null && (best == null || ValueOrder.compare(v, best, collation) * sign > 0)) {
                best = v;
            }
        }

        @Override
        Object result() {
            return best;
        }
    }

    /** {@code group_concat(x [, separator])}: non-NULL values joined by the separator (default {@code ,}). */
    private static final class Concat extends Accumulator {
        private StringBuilder text;

        @Override
        void add(Object[] values) {
            if (values[0] == null) {
                return;
            }
            if (text == null) {
                text = new StringBuilder();
            } else {
                text.append(values.length > 1 ? (values[1] == null ? "" : TextValue.of(values[1])) : ",");
            }
            text.append(TextValue.of(values[0]));
        }

        @Override
        Object result() {
            return text == null ? null : text.toString();
        }
    }

    /** A bare column of an aggregate query: the value of the group's last row, as SQLite does without min/max. */
    private static final class AnyValue extends Accumulator {
        private Object value;

        @Override
        void add(Object[] values) {
            value = values[0];
        }

        @Override
        Object result() {
            return value;
        }
    }
}
