package io.derive.engine.scenario.differential;

import java.util.Set;

/**
 * One generated query.
 *
 * @param id       replay handle, {@code databaseSeed:queryIndex}
 * @param sql      its two renderings
 * @param features what it exercises
 * @param ordered  true when it has a total {@code order by}, so results compare as lists
 */
public record GeneratedQuery(String id, Sql sql, Set<Feature> features, boolean ordered) {
    public GeneratedQuery {
        features = Set.copyOf(features);
    }
}
