package io.derive.engine.scenario;

import java.util.ArrayList;
import java.util.List;

/**
 * One statement of a scenario case and what it must produce.
 *
 * @param sql         the statement text, without its terminating semicolon
 * @param line        1-based line of the statement in its file
 * @param expectation the result it must have
 * @param columns     the column names it must report, or null when not checked
 * @param deltas      the changes it must make the named materialized views' backings report, one
 *                    per view (empty: none checked)
 */
public record ScenarioStep(String sql, int line, Expectation expectation, List<String> columns,
                           List<ExpectedDelta> deltas) {
    public ScenarioStep {
        deltas = List.copyOf(deltas);
    }

    public ScenarioStep(String sql, int line, Expectation expectation, List<String> columns) {
        this(sql, line, expectation, columns, List.of());
    }

    ScenarioStep withExpectation(Expectation e) {
        return new ScenarioStep(sql, line, e, columns, deltas);
    }

    ScenarioStep withColumns(List<String> c) {
        return new ScenarioStep(sql, line, expectation, c, deltas);
    }

    ScenarioStep withDelta(ExpectedDelta delta) {
        List<ExpectedDelta> all = new ArrayList<>(deltas);
        all.add(delta);
        return new ScenarioStep(sql, line, expectation, columns, all);
    }
}
