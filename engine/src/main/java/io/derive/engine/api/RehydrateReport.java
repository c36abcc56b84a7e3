package io.derive.engine.api;

import java.util.List;

/**
 * What opening a durable database did (semantics §8), as {@link Database#rehydrateReport()} and
 * {@code rehydrate_report()} show it: with each of its materialized views, and the storage work
 * beyond reattaching its tables — row counts taken and indexes built because what the last open
 * left could not be trusted. After a clean close an open does no such work.
 *
 * @param lastCloseClean whether the previous open ended with a clean close; informational for the
 *                       views (trust in a backing rests on the durable stale set, not on this),
 *                       the trust basis of the row counts stored at that close
 * @param views          one outcome per materialized view, in the order they were processed
 * @param storage        one entry per table whose rows were counted and per index that was
 *                       built, in the order the open did them, and one per table or index
 *                       that waits for an in-doubt transaction
 */
public record RehydrateReport(boolean lastCloseClean, List<Outcome> views, List<Repair> storage) {

    /** What happened to one materialized view. */
    public enum Action {
        /** Its backing was registered as it was; its body was not run. */
        ADOPTED,
        /** Its contents were recomputed from its body. */
        REFILLED,
        /** It could not be restored; its backing stays as a plain table. */
        FAILED,
        /**
         * Its backing or a source (directly or through other views) holds writes of an in-doubt
         * transaction: it is registered but answers nothing until that transaction is decided,
         * then it is adopted or refilled and the report says so.
         */
        WAITING,
        /**
         * It would be refilled, and the database was opened with its refills deferred
         * ({@code RehydrateMode.DEFERRED}): it is registered but answers nothing — reads of it and
         * writes to its sources fail with {@code is being rehydrated} — until
         * {@code rehydrate materialized view} refills it; the report then says
         * {@link #REFILLED}, its reason followed by {@value #REFILLED_LATER}.
         */
        PENDING
    }

    /** What follows the reason of a view refilled by {@code rehydrate materialized view} after the open left it pending. */
    public static final String REFILLED_LATER = "; refilled by rehydrate materialized view";

    /**
     * @param reason why it was refilled, failed or waits; null when it was adopted
     */
    public record Outcome(String schema, String name, Action action, String reason) {
    }

    /** Storage work an open did. */
    public enum Work {
        /** The table's rows were counted: no count stored at the last close could be trusted. */
        COUNTED,
        /** The index was built from its table's rows: its host kept no entries known current. */
        REBUILT,
        /**
         * The table holds writes of an in-doubt transaction: it answers nothing, and its rows are
         * counted (the index built) only once that transaction is decided.
         */
        WAITING
    }

    /**
     * @param table  the table counted, or whose index was built
     * @param index  the index built; null for {@link Work#COUNTED}
     * @param reason why the stored state was not used, or what it waits for
     */
    public record Repair(String schema, String table, String index, Work work, String reason) {
    }

    public RehydrateReport {
        views = List.copyOf(views);
        storage = List.copyOf(storage);
    }

    /**
     * This report with each {@link Action#PENDING} view for which {@code stillPending} is false
     * shown as {@link Action#REFILLED}: its refill has committed since.
     */
    public RehydrateReport withRefills(java.util.function.Predicate<Outcome> stillPending) {
        List<Outcome> now = views.stream().map(o -> o.action() != Action.PENDING || stillPending.test(o) ? o
                : new Outcome(o.schema(), o.name(), Action.REFILLED, o.reason() + REFILLED_LATER)).toList();
        return new RehydrateReport(lastCloseClean, now, storage);
    }

    /** The report of a database that is not durable: nothing was rehydrated. */
    public static final RehydrateReport NONE = new RehydrateReport(true, List.of(), List.of());
}
