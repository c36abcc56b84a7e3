package io.derive.batch.health;

import io.derive.client.DeriveConnectionFactory;
import io.derive.engine.api.DatabaseStatus;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Liveness;

/**
 * {@code /health/live}: DOWN once the Derive database failed to open or was closed — a state
 * only a restart mends — and UP while it opens, waits for recovery or is open: a long rehydrate
 * or an in-doubt branch is no reason to restart the server.
 */
@Liveness
@ApplicationScoped
public class DatabaseLiveness implements HealthCheck {

    /** The check's name in the health endpoints' answers. */
    static final String NAME = "derive-database-live";

    @Inject
    DeriveConnectionFactory connectionFactory;

    @Override
    public HealthCheckResponse call() {
        DatabaseStatus status = connectionFactory.status();
        boolean alive = !status.isFailed() && status.state() != DatabaseStatus.State.CLOSED;
        return DatabaseHealth.response(NAME, status, alive);
    }
}
