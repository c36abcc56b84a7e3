package io.derive.engine.api;

import io.derive.engine.schema.SchemaChangeListener;
import io.derive.engine.spi.TableModule;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * How to open a {@link Database}.
 *
 * @param name             a name for logs and error messages
 * @param defaultHost      the table module used when a statement names none ({@code memory})
 * @param writeLockTimeout how long a transaction waits for the database write lock
 * @param modules          table modules registered in addition to those found by
 *                         {@link java.util.ServiceLoader}; a module given here wins over a
 *                         discovered one of the same name
 * @param schemaChangeListeners listeners subscribed when the database opens (see
 *                         {@link SchemaChangeListener} for when they are called)
 */
public record DatabaseConfig(String name, String defaultHost, Duration writeLockTimeout,
                             List<TableModule> modules, List<SchemaChangeListener> schemaChangeListeners) {

    public DatabaseConfig {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(defaultHost, "defaultHost");
        Objects.requireNonNull(writeLockTimeout, "writeLockTimeout");
        if (writeLockTimeout.isNegative()) {
            throw new IllegalArgumentException("writeLockTimeout must not be negative");
        }
        modules = List.copyOf(modules);
        schemaChangeListeners = List.copyOf(schemaChangeListeners);
    }

    public DatabaseConfig(String name, String defaultHost, Duration writeLockTimeout, List<TableModule> modules) {
        this(name, defaultHost, writeLockTimeout, modules, List.of());
    }

    public DatabaseConfig withSchemaChangeListener(SchemaChangeListener listener) {
        List<SchemaChangeListener> all = new ArrayList<>(schemaChangeListeners);
        all.add(listener);
        return new DatabaseConfig(name, defaultHost, writeLockTimeout, modules, all);
    }

    public static DatabaseConfig named(String name) {
        return new DatabaseConfig(name, "memory", Duration.ofSeconds(10), List.of());
    }

    public DatabaseConfig withDefaultHost(String host) {
        return new DatabaseConfig(name, host, writeLockTimeout, modules, schemaChangeListeners);
    }

    public DatabaseConfig withWriteLockTimeout(Duration timeout) {
        return new DatabaseConfig(name, defaultHost, timeout, modules, schemaChangeListeners);
    }

    public DatabaseConfig withModule(TableModule module) {
        List<TableModule> all = new ArrayList<>(modules);
        all.add(module);
        return new DatabaseConfig(name, defaultHost, writeLockTimeout, all, schemaChangeListeners);
    }
}
