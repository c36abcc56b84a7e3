package io.derive.engine.exec.expr;

import io.derive.engine.api.DeriveException;
import io.derive.engine.plan.PlanNode;
import io.derive.engine.types.SqlType;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What an evaluator reads besides its input row: the values bound to the statement's parameters
 * (positional, 1-based, or named), the rows of the enclosing queries (for correlated subqueries
 * and lateral joins, innermost first), and the runner that evaluates subqueries.
 */
public final class Parameters {
    private static final Parameters NONE = new Parameters(new Object[0], Map.of(), null, null);

    /** Runs a subquery's plan in the statement's transaction. */
    public interface SubqueryRunner {
        List<Object[]> rows(PlanNode plan, Parameters parameters);
    }

    private final Object[] positional;
    private final Map<String, Object> named;
    private final OuterRows outer;
    private final SubqueryRunner runner;

    /** An immutable stack of enclosing rows. */
    private record OuterRows(Object[] row, OuterRows enclosing) {
    }

    private Parameters(Object[] positional, Map<String, Object> named, OuterRows outer, SubqueryRunner runner) {
        this.positional = positional;
        this.named = named;
        this.outer = outer;
        this.runner = runner;
    }

    public static Parameters none() {
        return NONE;
    }

    public static Parameters positional(Object... values) {
        Object[] normalized = new Object[values == null ? 0 : values.length];
        for (int i = 0; i < normalized.length; i++) {
            normalized[i] = SqlType.normalize(values[i]);
        }
        return new Parameters(normalized, Map.of(), null, null);
    }

    public static Parameters named(Map<String, ?> values) {
        Map<String, Object> normalized = new HashMap<>();
        values.forEach((k, v) -> normalized.put(k.toLowerCase(Locale.ROOT), SqlType.normalize(v)));
        return new Parameters(new Object[0], normalized, null, null);
    }

    public Object get(int index, String name) {
        if (name != null) {
            String key = name.toLowerCase(Locale.ROOT);
            if (!named.containsKey(key)) {
                throw new DeriveException(DeriveException.DATA, "no value bound to parameter :" + name);
            }
            return named.get(key);
        }
        if (index < 1 || index > positional.length) {
            throw new DeriveException(DeriveException.DATA, "no value bound to parameter ?" + index
                    + " (" + positional.length + " given)");
        }
        return positional[index - 1];
    }

    /** The same bindings, evaluating subqueries with {@code runner}. */
    public Parameters withRunner(SubqueryRunner runner) {
        return new Parameters(positional, named, outer, runner);
    }

    /** The same bindings with {@code row} as the innermost enclosing row. */
    public Parameters withOuter(Object[] row) {
        return new Parameters(positional, named, new OuterRows(row, outer), runner);
    }

    /** The enclosing row at {@code depth} (0 = innermost). */
    public Object[] outer(int depth) {
        OuterRows o = outer;
        for (int i = 0; i < depth && o != null; i++) {
            o = o.enclosing();
        }
        if (o == null) {
            throw new DeriveException(DeriveException.INTERNAL, "no enclosing row at depth " + depth);
        }
        return o.row();
    }

    /** The rows of a subquery's plan, evaluated in the statement's transaction. */
    public List<Object[]> subqueryRows(PlanNode plan) {
        if (runner == null) {
            throw new DeriveException(DeriveException.FEATURE_NOT_SUPPORTED, "subqueries are not allowed here");
        }
        return runner.rows(plan, this);
    }
}
