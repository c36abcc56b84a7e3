package io.derive.engine;

import io.derive.engine.api.Database;
import io.derive.engine.api.DeriveException;

import java.nio.file.Path;

/**
 * Where an embedder opens a Derive database. This is the one place that knows every engine
 * package, so that {@code api} can stay a leaf that names none of them.
 */
public final class Derive {
    private Derive() {
    }

    /**
     * Opens a database: the table modules are those found by {@link java.util.ServiceLoader}
     * plus those the configuration gives; a durable configuration rehydrates its catalog.
     *
     * @throws DeriveException when the default host or the durable host names no available
     *                         module, or when rehydrating a durable catalog fails
     */
    public static Database open(DatabaseConfig config) {
        return EngineDatabase.open(config);
    }

    /**
     * Opens the durable database in {@code directory}, creating it when the directory holds none:
     * {@link DatabaseConfig#inDirectory(Path)}.
     *
     * @throws DeriveException when no module on the class path keeps tables on disk, or as
     *                         {@link #open(DatabaseConfig)}
     */
    public static Database open(Path directory) {
        return open(DatabaseConfig.inDirectory(directory));
    }
}
