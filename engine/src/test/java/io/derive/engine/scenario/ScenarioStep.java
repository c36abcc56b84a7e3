package io.derive.engine.scenario;

import java.util.List;

/**
 * One statement of a scenario case and what it must produce.
 *
 * @param sql         the statement text, without its terminating semicolon
 * @param line        1-based line of the statement in its file
 * @param expectation the result it must have
 * @param columns     the column names it must report, or null when not checked
 */
public record ScenarioStep(String sql, int line, Expectation expectation, List<String> columns) {
}
