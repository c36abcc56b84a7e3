package io.derive.engine.scenario;

import java.util.List;

/** What a scenario step must produce. */
public sealed interface Expectation {

    /** No directive: the statement must simply succeed. */
    record Success() implements Expectation {
    }

    /**
     * Rows, each a list of cells rendered by {@link ValueText}; compared as a list when
     * {@code ordered}, else as a bag.
     */
    record Rows(boolean ordered, List<List<String>> rows) implements Expectation {
        public Rows {
            rows = rows.stream().map(List::copyOf).toList();
        }
    }

    /** A DeriveException whose message contains {@code fragment}, case-insensitively (empty: any). */
    record Error(String fragment) implements Expectation {
    }

    /** A write reporting {@code count} changed rows. */
    record Count(long count) implements Expectation {
    }
}
