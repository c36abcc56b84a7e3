package io.derive.engine.mvtest;

import java.util.Map;

/**
 * What one world of the constraint or covering differential did: the statements run, how many of
 * each kind (failed ones apart), and the first mismatch with its replay report, or null.
 */
public record WorldOutcome(String world, long seed, int statements, Map<String, Integer> statementsPerKind,
                           String failure) {
}
