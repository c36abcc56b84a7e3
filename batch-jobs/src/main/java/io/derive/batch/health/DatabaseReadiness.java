package io.derive.batch.health;

import io.derive.client.DeriveConnectionFactory;
import io.derive.engine.api.DatabaseStatus;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * {@code /health/ready}: UP once the Derive database is open — no branch a crash left prepared
 * waits for the transaction manager's recovery any more, and its views are rehydrated — and DOWN
 * before, so that no request is routed to a server whose statements would fail. With the resource
 * adapter's {@code rehydrateMode="batch"} it is UP as soon as the open has adopted what it can:
 * its data's {@code pendingRehydrates} counts the views the {@code mv-rehydrate} job has still to
 * refill, which answer {@code is being rehydrated} until then.
 */
@Readiness
@ApplicationScoped
public class DatabaseReadiness implements HealthCheck {

    /** The check's name in the health endpoints' answers. */
    static final String NAME = "derive-database-ready";

    @Inject
    DeriveConnectionFactory connectionFactory;

    @Override
    public HealthCheckResponse call() {
        DatabaseStatus status = connectionFactory.status();
        return DatabaseHealth.response(NAME, status, status.isOpen());
    }
}
