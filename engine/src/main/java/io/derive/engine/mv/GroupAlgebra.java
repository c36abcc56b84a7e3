package io.derive.engine.mv;

import io.derive.engine.exec.expr.Evaluator;
import io.derive.engine.exec.expr.ExpressionCompiler;
import io.derive.engine.exec.expr.Parameters;
import io.derive.engine.plan.AggregateCall;
import io.derive.engine.plan.BoundExpr;
import io.derive.engine.types.Collation;

import java.util.List;
import java.util.Optional;

/**
 * The aggregates of a group-by body when every one of them is decomposable — a source row's
 * contribution can be added to and taken out of a group's {@link GroupState} — and how a source
 * row is read for them. Decomposable are {@code count(*)}, {@code count(x)}, {@code sum},
 * {@code total}, {@code avg}, {@code min} and {@code max}, without {@code distinct}; a body with
 * any other aggregate ({@code group_concat}, a {@code distinct} aggregate, a bare column, whose
 * value depends on which rows a group holds beyond counts and extremes) has no algebra and is
 * recomputed group by group.
 */
final class GroupAlgebra {
    /** What one aggregate keeps. */
    enum Kind { COUNT_ROWS, COUNT, SUM, TOTAL, AVG, MIN, MAX }

    private final Kind[] kinds;
    private final Collation[] collations;
    private final Evaluator[] arguments;
    private final int[] argumentColumns;

    private GroupAlgebra(Kind[] kinds, Collation[] collations, Evaluator[] arguments, int[] argumentColumns) {
        this.kinds = kinds;
        this.collations = collations;
        this.arguments = arguments;
        this.argumentColumns = argumentColumns;
    }

    /** The algebra of these aggregates (over source rows), or empty when one of them is not decomposable. */
    static Optional<GroupAlgebra> of(List<AggregateCall> calls) {
        Kind[] kinds = new Kind[calls.size()];
        Collation[] collations = new Collation[calls.size()];
        Evaluator[] arguments = new Evaluator[calls.size()];
        int[] columns = new int[calls.size()];
        for (int i = 0; i < kinds.length; i++) {
            AggregateCall call = calls.get(i);
            Kind kind = kind(call);
            if (kind == null) {
                return Optional.empty();
            }
            kinds[i] = kind;
            collations[i] = call.collation();
            columns[i] = -1;
            if (kind != Kind.COUNT_ROWS) {
                BoundExpr argument = call.arguments().get(0);
                arguments[i] = ExpressionCompiler.compile(argument);
                columns[i] = column(argument);
            }
        }
        return Optional.of(new GroupAlgebra(kinds, collations, arguments, columns));
    }

    /** The source column a bare-column argument reads ({@code x} or {@code x collate c}), else -1. */
    private static int column(BoundExpr argument) {
        if (argument instanceof BoundExpr.Call c && c.operator().equals("collate")) {
            return column(c.arguments().get(0));
        }
        return argument instanceof BoundExpr.ColumnSlot slot ? slot.index() : -1;
    }

    private static Kind kind(AggregateCall call) {
        if (call.distinct()) {
            return null;
        }
        int arity = call.arguments().size();
        switch (call.function()) {
            case "count":
                return arity == 0 ? Kind.COUNT_ROWS : arity == 1 ? Kind.COUNT : null;
            case "sum":
                return arity == 1 ? Kind.SUM : null;
            case "total":
                return arity == 1 ? Kind.TOTAL : null;
            case "avg":
                return arity == 1 ? Kind.AVG : null;
            case "min":
                return arity == 1 ? Kind.MIN : null;
            case "max":
                return arity == 1 ? Kind.MAX : null;
            default:
                return null;
        }
    }

    int size() {
        return kinds.length;
    }

    Kind kind(int aggregate) {
        return kinds[aggregate];
    }

    /** The collation {@code min}/{@code max} compare under. */
    Collation collation(int aggregate) {
        return collations[aggregate];
    }

    /**
     * The source column an aggregate reads when its argument is a bare column (possibly with a
     * {@code collate}, which the aggregate's collation carries), else -1.
     */
    int argumentColumn(int aggregate) {
        return argumentColumns[aggregate];
    }

    /** Each aggregate's argument over a source row ({@code null} for {@code count(*)}). */
    Object[] arguments(Object[] sourceRow) {
        Object[] values = new Object[kinds.length];
        for (int i = 0; i < values.length; i++) {
            if (arguments[i] != null) {
                values[i] = arguments[i].eval(sourceRow, Parameters.none());
            }
        }
        return values;
    }
}
