package io.derive.batch;

import jakarta.enterprise.context.Dependent;
import jakarta.inject.Named;

/**
 * The writer of {@code mv-refresh}'s chunk step: writes the chunk's rows of the body into the
 * run's shadow ({@code refresh materialized view v continue run … limit n}).
 */
@Named("mvRefreshChunkWriter")
@Dependent
public class MvRefreshChunkWriter extends RunChunkWriter {

    @Override
    String continueStatement(String run, int limit) {
        return "refresh materialized view " + view + " continue run " + run + " limit " + limit;
    }

    @Override
    String what() {
        return "refresh of materialized view " + view;
    }
}
