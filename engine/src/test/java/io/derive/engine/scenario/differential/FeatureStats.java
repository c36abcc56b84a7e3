package io.derive.engine.scenario.differential;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Per-feature counts of a differential run. A query counts once under each feature it uses:
 * passed, failed (a mismatch or a Derive error), or skipped because Derive reported the feature
 * as not supported yet. Derby agreement is counted separately; it checks the generator, not Derive.
 */
public final class FeatureStats {
    private static final int KEPT_FAILURES = 20;

    /** Counters of one feature. */
    public static final class Counts {
        int run;
        int passed;
        int failed;
        int unsupported;

        public int run() {
            return run;
        }

        public int passed() {
            return passed;
        }

        public int failed() {
            return failed;
        }

        public int unsupported() {
            return unsupported;
        }
    }

    private final Map<Feature, Counts> counts = new EnumMap<>(Feature.class);
    private final List<String> failures = new ArrayList<>();
    private final List<String> enforcedFailures = new ArrayList<>();
    private int queries;
    private int oracleRejected;
    private int derbyCompared;
    private int derbyAgreed;
    private final List<String> derbyDisagreements = new ArrayList<>();
    private final Map<String, Long> elapsed = new java.util.TreeMap<>();

    void passed(Set<Feature> features) {
        queries++;
        each(features, c -> c.passed++);
    }

    void unsupported(Set<Feature> features) {
        queries++;
        each(features, c -> c.unsupported++);
    }

    void failed(GeneratedQuery query, String report, boolean enforced) {
        queries++;
        each(query.features(), c -> c.failed++);
        if (failures.size() < KEPT_FAILURES) {
            failures.add(report);
        }
        if (enforced && enforcedFailures.size() < KEPT_FAILURES) {
            enforcedFailures.add(report);
        }
    }

    void time(String engine, long startNanos) {
        elapsed.merge(engine, System.nanoTime() - startNanos, Long::sum);
    }

    void oracleRejected() {
        oracleRejected++;
    }

    void derby(boolean agreed, String report) {
        derbyCompared++;
        if (agreed) {
            derbyAgreed++;
        } else if (derbyDisagreements.size() < 5) {
            derbyDisagreements.add(report);
        }
    }

    private void each(Set<Feature> features, java.util.function.Consumer<Counts> update) {
        for (Feature f : features) {
            Counts c = counts.computeIfAbsent(f, k -> new Counts());
            c.run++;
            update.accept(c);
        }
    }

    int derbyCompared() {
        return derbyCompared;
    }

    public int queries() {
        return queries;
    }

    public Map<Feature, Counts> counts() {
        return counts;
    }

    public List<String> enforcedFailures() {
        return enforcedFailures;
    }

    public List<String> failures() {
        return failures;
    }

    public List<String> derbyDisagreements() {
        return derbyDisagreements;
    }

    /** A table of the counts, one feature a line, for the log and the test report. */
    public String summary(Set<Feature> enforced) {
        StringBuilder out = new StringBuilder(String.format(Locale.ROOT,
                "differential run: %d queries (%d more rejected by SQLite itself); Derby compared %d, agreed with SQLite %d%n",
                queries, oracleRejected, derbyCompared, derbyAgreed));
        elapsed.forEach((engine, nanos) -> out.append(String.format(Locale.ROOT, "  %s: %d ms", engine, nanos / 1_000_000)));
        out.append(System.lineSeparator());
        out.append(String.format(Locale.ROOT, "%-20s %8s %7s %7s %12s %7s%n",
                "feature", "run", "passed", "failed", "unsupported", "pass%"));
        counts.forEach((f, c) -> {
            int attempted = c.run - c.unsupported;
            out.append(String.format(Locale.ROOT, "%-20s %8d %7d %7d %12d %6.1f%%%s%n", f, c.run, c.passed, c.failed,
                    c.unsupported, attempted == 0 ? 0.0 : 100.0 * c.passed / attempted,
                    enforced.contains(f) ? "  (enforced)" : ""));
        });
        return out.toString();
    }
}
