package io.derive.cli.slt;

import java.util.List;

/**
 * The outcome of one sqllogictest file: how many statement and query records ran, passed, failed
 * and were skipped (by a condition, or by {@link TriggerExclusion}), and a message per failure.
 */
public record FileResult(String file, int run, int passed, int failed, int skipped, List<String> failures) {
    public FileResult {
        failures = List.copyOf(failures);
    }

    /** The counts of several files added up, under {@code name}. */
    public static FileResult total(String name, List<FileResult> results) {
        int run = 0;
        int passed = 0;
        int failed = 0;
        int skipped = 0;
        for (FileResult r : results) {
            run += r.run;
            passed += r.passed;
            failed += r.failed;
            skipped += r.skipped;
        }
        return new FileResult(name, run, passed, failed, skipped, List.of());
    }

    /** {@code FILE: N run, N passed, N failed, N skipped}. */
    public String summary() {
        return file + ": " + run + " run, " + passed + " passed, " + failed + " failed, " + skipped + " skipped";
    }
}
