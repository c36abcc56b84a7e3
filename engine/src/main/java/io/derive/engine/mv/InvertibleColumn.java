package io.derive.engine.mv;

import io.derive.engine.api.DeriveException;
import io.derive.engine.exec.expr.Evaluator;
import io.derive.engine.exec.expr.ExpressionCompiler;
import io.derive.engine.exec.expr.Parameters;
import io.derive.engine.plan.BoundExpr;
import io.derive.engine.schema.ColumnSchema;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.types.Collation;
import io.derive.engine.types.SqlType;
import io.derive.engine.types.TextValue;
import io.derive.engine.types.ValueOrder;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * A computed MV output that a write can go through (semantics §4): {@code c + k}, {@code c - k},
 * {@code k + c}, {@code k - c} or {@code -c} over a numeric column {@code c} of the body's source
 * and a numeric literal {@code k}. A value written to the output is stored in {@code c} inverted
 * ({@code v - k}, {@code v + k}, {@code k - v}, {@code -v}), and only when the output then reads
 * back as exactly the value written: the inverse may not fit {@code c}'s type ({@code c + 0.5}
 * over an integer given an integer), overflow (SQLite's integer arithmetic turns real), or lose
 * digits of a real.
 */
final class InvertibleColumn implements UnaryOperator<Object> {
    private static final Set<SqlType> NUMERIC = Set.of(SqlType.INTEGER, SqlType.REAL, SqlType.NUMERIC);

    private final TableSchema mv;
    private final int column;
    private final TableSchema source;
    private final int sourceColumn;
    /** The body's expression for the output, over a source row. */
    private final Evaluator forward;
    /** The inverse, over a one-value row holding the value written. */
    private final Evaluator inverse;
    /** The output's expression as the error of an inexact write shows it ({@code c + 0.5}). */
    private final String rule;

    private InvertibleColumn(TableSchema mv, int column, TableSchema source, BoundExpr.ColumnSlot slot, BoundExpr output,
                             BoundExpr inverse, String rule) {
        this.mv = mv;
        this.column = column;
        this.source = source;
        this.sourceColumn = slot.index();
        this.forward = ExpressionCompiler.compile(output);
        this.inverse = ExpressionCompiler.compile(inverse);
        this.rule = rule;
    }

    /**
     * The write-back of MV column {@code column}, whose body expression over {@code source}'s
     * row is {@code output}; empty when the expression is not of an invertible shape over a
     * numeric ({@code integer}, {@code real} or {@code numeric}) column.
     */
    static Optional<InvertibleColumn> of(TableSchema mv, int column, TableSchema source, BoundExpr output) {
        if (!(output instanceof BoundExpr.Call call)) {
            return Optional.empty();
        }
        List<BoundExpr> args = call.arguments();
        BoundExpr.ColumnSlot slot = args.stream().filter(a -> a instanceof BoundExpr.ColumnSlot)
                .map(a -> (BoundExpr.ColumnSlot) a).findFirst().orElse(null);
        if (slot == null || !NUMERIC.contains(source.columns().get(slot.index()).type())) {
            return Optional.empty();
        }
        String c = source.columns().get(slot.index()).name();
        BoundExpr written = new BoundExpr.ColumnSlot(0, "written", SqlType.ANY, Collation.BINARY, false);
        if (call.operator().equals("neg") && args.size() == 1) {
            return Optional.of(new InvertibleColumn(mv, column, source, slot, output, arithmetic("neg", written), "-" + c));
        }
        if (args.size() != 2 || !(call.operator().equals("+") || call.operator().equals("-"))) {
            return Optional.empty();
        }
        boolean columnFirst = args.get(0) == slot;
        if (!(args.get(columnFirst ? 1 : 0) instanceof BoundExpr.Constant k && k.value() instanceof Number)) {
            return Optional.empty();
        }
        String literal = TextValue.of(k.value());
        String op = call.operator();
        BoundExpr inverse;
        String rule;
        if (columnFirst) {
            // c + k ← v - k; c - k ← v + k
            inverse = arithmetic(op.equals("+") ? "-" : "+", written, k);
            rule = c + " " + op + " " + literal;
        } else {
            // k + c ← v - k; k - c ← k - v
            inverse = op.equals("+") ? arithmetic("-", written, k) : arithmetic("-", k, written);
            rule = literal + " " + op + " " + c;
        }
        return Optional.of(new InvertibleColumn(mv, column, source, slot, output, inverse, rule));
    }

    /** The name of the source column the output writes. */
    String sourceColumn() {
        return source.columns().get(sourceColumn).name();
    }

    /**
     * The value to store in the source column for {@code written}, a value written to the output
     * (NULL stays NULL): coerced to the column's type, and such that the output reads it back
     * as {@code written} reads in the output's own type.
     *
     * @throws DeriveException naming the view, the output and its expression when no value of
     *         the source column reads back exactly so; or when {@code written} has no
     *         representation in the output's type
     */
    @Override
    public Object apply(Object written) {
        ColumnSchema output = mv.columns().get(column);
        Object wanted = output.type().coerce(written, mv.columnLabel(column));
        if (wanted == null) {
            return null;
        }
        ColumnSchema target = source.columns().get(sourceColumn);
        try {
            Object stored = target.type().coerce(inverse.eval(new Object[] {wanted}, Parameters.none()),
                    source.columnLabel(sourceColumn));
            Object[] row = new Object[source.columns().size()];
            row[sourceColumn] = stored;
            Object readBack = output.type().coerce(forward.eval(row, Parameters.none()), mv.columnLabel(column));
            // equal as SQL compares numbers: over a numeric column, a written integer reads back as a numeric
            if (readBack != null && ValueOrder.compare(readBack, wanted, Collation.BINARY) == 0) {
                return stored;
            }
        } catch (DeriveException notStorable) {
            // the inverse has no representation in the source column: not writable either
        }
        throw new DeriveException(DeriveException.DATA, "materialized view '" + mv.qualifiedName() + "' column '"
                + output.name() + "': " + shown(written) + " cannot be written back exactly to " + target.type().sqlName()
                + " column '" + target.name() + "' through " + rule);
    }

    private static BoundExpr arithmetic(String operator, BoundExpr... operands) {
        return new BoundExpr.Call(operator, null, List.of(operands), SqlType.ANY, Collation.BINARY, true);
    }

    private static String shown(Object value) {
        return value instanceof String s ? "'" + s + "'" : TextValue.of(value);
    }
}
