package io.derive.derby;

import io.derive.engine.DatabaseConfig;

import java.time.Duration;

/** The configuration the Derby runs of the shared suites use. */
final class DerbyHosts {
    private DerbyHosts() {
    }

    /**
     * A database whose default host is a private in-memory Derby database whose lock timeout is
     * a second: readers must never wait for another session's locks, and one that did would fail
     * fast with a lock timeout instead of stalling the suite.
     */
    static DatabaseConfig config(String name) {
        return DatabaseConfig.named(name).withDefaultHost("derby")
                .withModule(new DerbyTableModule().withLockTimeout(Duration.ofSeconds(1)));
    }
}
