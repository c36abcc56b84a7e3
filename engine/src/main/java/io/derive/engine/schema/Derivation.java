package io.derive.engine.schema;

import io.derive.engine.sql.ast.Select;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What makes a table a maintained table: its body and what maintenance was compiled from it.
 *
 * @param bodySql      the body as written, kept for introspection and hashing
 * @param body         the parsed body
 * @param sources      qualified names (lower case) of the tables the body reads
 * @param maintenance  the maintenance arm compiled for the body at registration
 * @param statistics   counters that live as long as this maintained table
 * @param tags         the MV's tags (metadata, never part of maintenance), in the order they were added
 * @param stale        true when a source changed so that maintenance no longer applies (semantics §5):
 *                     the last contents are served, writes no longer reach it, refresh clears it
 */
public record Derivation(String bodySql, Select body, Set<String> sources, Maintenance maintenance,
                         MaterializedViewStatistics statistics, Map<String, String> tags, boolean stale) {

    public Derivation {
        sources = Set.copyOf(sources);
        tags = Collections.unmodifiableMap(new LinkedHashMap<>(tags));
    }

    /** A derivation without tags. */
    public Derivation(String bodySql, Select body, Set<String> sources, Maintenance maintenance,
                      MaterializedViewStatistics statistics) {
        this(bodySql, body, sources, maintenance, statistics, Map.of(), false);
    }

    /** A current (not stale) derivation. */
    public Derivation(String bodySql, Select body, Set<String> sources, Maintenance maintenance,
                      MaterializedViewStatistics statistics, Map<String, String> tags) {
        this(bodySql, body, sources, maintenance, statistics, tags, false);
    }

    /** The same derivation with other tags: the compiled maintenance and the statistics carry over. */
    public Derivation withTags(Map<String, String> next) {
        return new Derivation(bodySql, body, sources, maintenance, statistics, next, stale);
    }

    /** The same derivation, now stale: its maintenance no longer runs. */
    public Derivation asStale() {
        return new Derivation(bodySql, body, sources, maintenance, statistics, tags, true);
    }

    /**
     * The same derivation over a body rewritten to follow a rename (semantics §5): the body reads
     * the same rows under the new names, so statistics, tags and staleness carry over; the
     * maintenance is the one compiled for the new body (a stale derivation keeps its own, which
     * does not run).
     */
    public Derivation rebodied(String nextBodySql, Select nextBody, Set<String> nextSources, Maintenance next) {
        return new Derivation(nextBodySql, nextBody, nextSources, next, statistics, tags, stale);
    }

    /** The same derivation recompiled against changed sources: current again, with new maintenance. */
    public Derivation recompiled(Maintenance next) {
        return new Derivation(bodySql, body, sources, next, statistics, tags, false);
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
    }
}
