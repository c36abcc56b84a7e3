package io.derive.engine.schema;

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
 */
public record Derivation(String bodySql, Select body, Set<String> sources, Maintenance maintenance,
                         MaterializedViewStatistics statistics) {

    public Derivation {
        sources = Set.copyOf(sources);
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
