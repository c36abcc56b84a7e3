package io.derive.engine.scenario;

import java.util.List;

/**
 * One case of a scenario file: its steps run in order on a fresh database.
 *
 * @param file        the file name, e.g. {@code expressions.sql}
 * @param name        the case name, unique within its file
 * @param line        line of its {@code -- case:} directive
 * @param pending     the feature it waits for, or null when it must pass now
 * @param deriveOnly  why SQLite cannot check it (Derive-specific syntax or deliberate deviation),
 *                    or null when its expectations are SQLite's results
 * @param steps       the file's setup steps followed by the case's own
 */
public record ScenarioCase(String file, String name, int line, String pending, String deriveOnly,
                           List<ScenarioStep> steps) {
    public ScenarioCase {
        steps = List.copyOf(steps);
    }

    /** Where the case is, for failure messages: {@code file:line (name)}. */
    public String location() {
        return file + ":" + line + " (" + name + ")";
    }
}
