package io.derive.batch.health;

import io.derive.engine.api.DatabaseStatus;

import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;

/** The answer both Derive health checks give: the database's status as the check's data. */
final class DatabaseHealth {
    private DatabaseHealth() {
    }

    /** The answer of check {@code name}: {@code up} or not, with the status's state and detail (and branches in doubt, and views a deferred rehydrate left pending). */
    static HealthCheckResponse response(String name, DatabaseStatus status, boolean up) {
        HealthCheckResponseBuilder response = HealthCheckResponse.named(name).status(up)
                .withData("state", status.state().name())
                .withData("detail", status.detail());
        if (status.state() == DatabaseStatus.State.WAITING_FOR_IN_DOUBT) {
            response.withData("inDoubtBranches", status.inDoubtBranches());
        }
        if (status.pendingRehydrates() > 0) {
            response.withData("pendingRehydrates", status.pendingRehydrates());
        }
        return response.build();
    }
}
