package io.derive.batch;

import io.derive.client.DeriveConnectionFactory;

import java.lang.System.Logger.Level;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;

/**
 * Makes the container create Derive's connection factory when the application starts, which
 * starts opening the database: rehydrate and the discovery of in-doubt branches then happen at
 * server start, not in the first request. The application's start does not wait for the open;
 * {@code /health/ready} is UP once it is done.
 */
@ApplicationScoped
public class OpenDatabaseAtStartup {
    private static final System.Logger LOG = System.getLogger(OpenDatabaseAtStartup.class.getName());

    void open(@Observes @Initialized(ApplicationScoped.class) Object started, DeriveConnectionFactory factory) {
        LOG.log(Level.INFO, "Derive connection factory ready: {0}", factory);
    }
}
