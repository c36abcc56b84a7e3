package io.derive.engine.schema;

import io.derive.engine.api.RefreshSchedule;
import io.derive.engine.sql.ast.Select;

import java.util.List;
import java.util.Set;

/**
 * What makes a table a maintained table: its body and what maintenance was compiled from it.
 *
 * @param bodySql      the body as written, kept for introspection and hashing
 * @param body         the parsed body
 * @param sources      qualified names (lower case) of the tables the body reads
 * @param maintenance  the maintenance arm compiled for the body at registration
 * @param statistics   counters that live as long as this maintained table
 * @param stale        true when a source changed so that maintenance no longer applies (semantics §5):
 *                     the last contents are served, writes no longer reach it, refresh clears it
 * @param validator    where the validator of the table's declared constraints is cached, for as
 *                     long as this maintained table lives (semantics §6)
 * @param schedule     when the scheduler refreshes it (semantics §9); null when it has no schedule.
 *                     Like tags it is catalog metadata: a new body, a rename or staleness keeps it
 */
public record Derivation(String bodySql, Select body, Set<String> sources, Maintenance maintenance,
                         MaterializedViewStatistics statistics, boolean stale,
                         ValidatorSlot validator, RefreshSchedule schedule) {

    public Derivation {
        sources = Set.copyOf(sources);
    }

    /** A current (not stale) derivation. */
    public Derivation(String bodySql, Select body, Set<String> sources, Maintenance maintenance,
                      MaterializedViewStatistics statistics) {
        this(bodySql, body, sources, maintenance, statistics, false, new ValidatorSlot(), null);
    }

    /** The same derivation, now stale: its maintenance no longer runs. */
    public Derivation asStale() {
        return new Derivation(bodySql, body, sources, maintenance, statistics, true, validator, schedule);
    }

    /**
     * The same derivation over a body rewritten to follow a rename (semantics §5): the body reads
     * the same rows under the new names, so statistics and staleness carry over; the
     * maintenance is the one compiled for the new body (a stale derivation keeps its own, which
     * does not run). The validator is compiled again at the next use: the rename may have moved
     * a table it reads.
     */
    public Derivation rebodied(String nextBodySql, Select nextBody, Set<String> nextSources, Maintenance next) {
        return new Derivation(nextBodySql, nextBody, nextSources, next, statistics, stale, new ValidatorSlot(), schedule);
    }

    /** The same derivation recompiled against changed sources: current again, with new maintenance. */
    public Derivation recompiled(Maintenance next) {
        return new Derivation(bodySql, body, sources, next, statistics, false, validator, schedule);
    }

    /** The same derivation with another schedule (null: none); nothing else changes, so nothing is rebuilt. */
    public Derivation withSchedule(RefreshSchedule next) {
        return new Derivation(bodySql, body, sources, maintenance, statistics, stale, validator, next);
    }

    /**
     * The compiled maintenance of one maintained table: which arm runs and how. Implemented by
     * the {@code mv} package; the catalog only carries it so that it commits and rolls back with
     * the DDL that created it.
     */
    public interface Maintenance {

        /** The arm's name as {@code explain} and {@code materialized_views()} show it. */
        String arm();

        /** The column names the body publishes, in order. */
        List<String> outputColumns();

        /**
         * The column sets of the source with catalog key {@code table} that this maintenance
         * finds rows by, each needing an index whose leading columns they are (semantics §4.3:
         * a seek, never a scan); none by default.
         */
        default List<Set<Integer>> seekColumns(String table) {
            return List.of();
        }
    }

    /**
     * A validator compiled from a maintained table's declared constraints, by the {@code mv}
     * package. It is compiled against the tables its checks read (foreign-key parents, tables a
     * CHECK's subquery reads), so it knows them and says whether it still fits a catalog.
     */
    public interface Validator {

        /** Whether it was compiled from {@code table} as it is and from what {@code catalog} names now. */
        boolean fits(TableSchema table, Catalog catalog);
    }

    /**
     * The cache of a maintained table's {@link Validator}: compiled on first use, replaced when
     * it no longer fits (a table it depends on was renamed, dropped or re-created). Readers may
     * race; each then compiles its own, which is only wasted work.
     */
    public static final class ValidatorSlot {
        private volatile Validator validator;

        public Validator get() {
            return validator;
        }

        public void set(Validator next) {
            validator = next;
        }
    }
}
