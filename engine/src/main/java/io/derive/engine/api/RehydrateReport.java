package io.derive.engine.api;

import java.util.List;

/**
 * What opening a durable database did with each of its materialized views (semantics §8), as
 * {@link Database#rehydrateReport()} and {@code rehydrate_report()} show it.
 *
 * @param lastCloseClean whether the previous open ended with a clean close; informational only
 *                       (trust in a backing rests on the durable stale set, not on this)
 * @param views          one outcome per materialized view, in the order they were processed
 */
public record RehydrateReport(boolean lastCloseClean, List<Outcome> views) {

    /** What happened to one materialized view. */
    public enum Action {
        /** Its backing was registered as it was; its body was not run. */
        ADOPTED,
        /** Its contents were recomputed from its body. */
        REFILLED,
        /** It could not be restored; its backing stays as a plain table. */
        FAILED
    }

    /**
     * @param reason why it was refilled or failed; null when it was adopted
     */
    public record Outcome(String schema, String name, Action action, String reason) {
    }

    public RehydrateReport {
        views = List.copyOf(views);
    }

    /** The report of a database that is not durable: nothing was rehydrated. */
    public static final RehydrateReport NONE = new RehydrateReport(true, List.of());
}
