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
 */
public record Derivation(String bodySql, Select body, Set<String> sources, Maintenance maintenance,
                         MaterializedViewStatistics statistics, Map<String, String> tags) {

    public Derivation {
        sources = Set.copyOf(sources);
        tags = Collections.unmodifiableMap(new LinkedHashMap<>(tags));
    }

    /** A derivation without tags. */
    public Derivation(String bodySql, Select body, Set<String> sources, Maintenance maintenance,
                      MaterializedViewStatistics statistics) {
        this(bodySql, body, sources, maintenance, statistics, Map.of());
    }

    /** The same derivation with other tags: the compiled maintenance and the statistics carry over. */
    public Derivation withTags(Map<String, String> next) {
        return new Derivation(bodySql, body, sources, maintenance, statistics, next);
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
