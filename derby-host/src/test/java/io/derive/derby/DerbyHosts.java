package io.derive.derby;

import io.derive.engine.DatabaseConfig;

import java.time.Duration;

/** The configuration the Derby runs of the shared suites use. */
final class DerbyHosts {
    private DerbyHosts() {
    }

    /**
     * A database whose default host is a private in-memory Derby database; readers wait at most
     * a second for another session's locks, so the tests that watch that wait stay short.
     */
    static DatabaseConfig config(String name) {
        return DatabaseConfig.named(name).withDefaultHost("derby")
                .withModule(new DerbyTableModule().withLockTimeout(Duration.ofSeconds(1)));
    }
}
