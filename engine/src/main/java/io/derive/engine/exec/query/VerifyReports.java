package io.derive.engine.exec.query;

import java.time.Instant;
import java.util.List;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * The last {@code verify materialized view} of each materialized view since the database
 * opened, which {@code verify_report()} lists; kept in memory only, as an operator's view of the
 * latest audit rather than a history.
 */
public final class VerifyReports {
    /** How many drifted keys a report names. */
    public static final int SAMPLE = 10;

    /**
     * One verification.
     *
     * @param repaired whether the statement rewrote the drifted keys in its transaction (undone if
     *                 that transaction rolled back)
     * @param sample   the first {@link #SAMPLE} drifted keys, as {@code kind key} separated by
     *                 {@code "; "}; empty when there was no drift
     * @param keyRange the statement's {@code where} as written, null when it verified every key
     */
    public record Report(String schema, String name, Instant verifiedAt, long missing, long extra, long differs,
                         boolean repaired, String sample, String keyRange) {
    }

    private final ConcurrentSkipListMap<String, Report> last = new ConcurrentSkipListMap<>();

    /** Records {@code report} as the last one of its view. */
    public void record(Report report) {
        last.put(report.schema() + "." + report.name(), report);
    }

    /** Every view's last report, by schema and name. */
    public List<Report> all() {
        return List.copyOf(last.values());
    }
}
