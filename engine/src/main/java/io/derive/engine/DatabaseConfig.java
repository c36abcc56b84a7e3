package io.derive.engine;

import io.derive.engine.api.Database;
import io.derive.engine.api.DeriveException;
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
 * @param writeLockTimeout how long a transaction waits for a lock another transaction holds ({@link io.derive.engine.txn.LockTable})
 * @param modules          table modules registered in addition to those found by
 *                         {@link java.util.ServiceLoader}; a module given here wins over a
 *                         discovered one of the same name
 * @param schemaChangeListeners listeners subscribed when the database opens (see
 *                         {@link SchemaChangeListener} for when they are called)
 * @param durableHost      the table module that keeps this database's catalog, which makes the
 *                         database durable: its schema is stored there and rehydrated at every
 *                         open (semantics §8); null for a database that lives only as long as it
 *                         is open
 * @param rehydrateMode    for a durable database, whether the materialized views its open
 *                         cannot adopt are refilled during the open ({@link RehydrateMode#INLINE},
 *                         the default) or left pending for {@code rehydrate materialized view}
 *                         ({@link RehydrateMode#DEFERRED}); no effect on a database that is not durable
 * @param statementCacheSize how many statement texts each session keeps parsed, with a query's
 *                         plan while the schema stays as it was, for the next run of the same text
 *                         ({@value #DEFAULT_STATEMENT_CACHE_SIZE} by default; 0 keeps none): what
 *                         {@code Session.execute(sql, …)} saves where a prepared statement would
 */
public record DatabaseConfig(String name, String defaultHost, Duration writeLockTimeout,
                             List<TableModule> modules, List<SchemaChangeListener> schemaChangeListeners,
                             String durableHost, RehydrateMode rehydrateMode, int statementCacheSize) {

    /** How many statement texts a session keeps parsed unless the configuration says otherwise. */
    public static final int DEFAULT_STATEMENT_CACHE_SIZE = 64;

    public DatabaseConfig {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(defaultHost, "defaultHost");
        Objects.requireNonNull(writeLockTimeout, "writeLockTimeout");
        Objects.requireNonNull(rehydrateMode, "rehydrateMode");
        if (writeLockTimeout.isNegative()) {
            throw new IllegalArgumentException("writeLockTimeout must not be negative");
        }
        if (statementCacheSize < 0) {
            throw new IllegalArgumentException("statementCacheSize must not be negative");
        }
        modules = List.copyOf(modules);
        schemaChangeListeners = List.copyOf(schemaChangeListeners);
    }

    /** A configuration that rehydrates {@linkplain RehydrateMode#INLINE inline}. */
    public DatabaseConfig(String name, String defaultHost, Duration writeLockTimeout, List<TableModule> modules,
                          List<SchemaChangeListener> schemaChangeListeners, String durableHost) {
        this(name, defaultHost, writeLockTimeout, modules, schemaChangeListeners, durableHost, RehydrateMode.INLINE,
                DEFAULT_STATEMENT_CACHE_SIZE);
    }

    public DatabaseConfig(String name, String defaultHost, Duration writeLockTimeout, List<TableModule> modules) {
        this(name, defaultHost, writeLockTimeout, modules, List.of(), null);
    }

    /**
     * A durable database in {@code directory} (created there when absent) whose catalog, and
     * by default every table, is kept by the first discovered module that can keep tables there
     * ({@link TableModule#durableAt}); the Derby host when it is on the class path.
     *
     * @throws DeriveException when no available module keeps tables on disk
     */
    public static DatabaseConfig inDirectory(java.nio.file.Path directory) {
        for (TableModule m : java.util.ServiceLoader.load(TableModule.class, TableModule.class.getClassLoader())) {
            java.util.Optional<TableModule> durable = m.durableAt(directory);
            if (durable.isPresent()) {
                String name = directory.getFileName() == null ? directory.toString() : directory.getFileName().toString();
                return named(name).withModule(durable.get()).withDefaultHost(durable.get().name())
                        .withDurableHost(durable.get().name());
            }
        }
        throw new DeriveException(DeriveException.FEATURE_NOT_SUPPORTED, "no table module on the class path keeps tables"
                + " on disk (add the Derby host) to open the database in " + directory);
    }

    /** The same configuration with its catalog kept by the module {@code host}; see {@link #durableHost()}. */
    public DatabaseConfig withDurableHost(String host) {
        return new DatabaseConfig(name, defaultHost, writeLockTimeout, modules, schemaChangeListeners, host, rehydrateMode,
                statementCacheSize);
    }

    public DatabaseConfig withSchemaChangeListener(SchemaChangeListener listener) {
        List<SchemaChangeListener> all = new ArrayList<>(schemaChangeListeners);
        all.add(listener);
        return new DatabaseConfig(name, defaultHost, writeLockTimeout, modules, all, durableHost, rehydrateMode,
                statementCacheSize);
    }

    /** The same configuration with its views refilled as {@code mode} says; see {@link #rehydrateMode()}. */
    public DatabaseConfig withRehydrateMode(RehydrateMode mode) {
        return new DatabaseConfig(name, defaultHost, writeLockTimeout, modules, schemaChangeListeners, durableHost, mode,
                statementCacheSize);
    }

    public static DatabaseConfig named(String name) {
        return new DatabaseConfig(name, "memory", Duration.ofSeconds(10), List.of());
    }

    public DatabaseConfig withDefaultHost(String host) {
        return new DatabaseConfig(name, host, writeLockTimeout, modules, schemaChangeListeners, durableHost, rehydrateMode,
                statementCacheSize);
    }

    public DatabaseConfig withWriteLockTimeout(Duration timeout) {
        return new DatabaseConfig(name, defaultHost, timeout, modules, schemaChangeListeners, durableHost, rehydrateMode,
                statementCacheSize);
    }

    public DatabaseConfig withModule(TableModule module) {
        List<TableModule> all = new ArrayList<>(modules);
        all.add(module);
        return new DatabaseConfig(name, defaultHost, writeLockTimeout, all, schemaChangeListeners, durableHost, rehydrateMode,
                statementCacheSize);
    }

    /** The same configuration with sessions keeping {@code size} statement texts parsed; see {@link #statementCacheSize()}. */
    public DatabaseConfig withStatementCacheSize(int size) {
        return new DatabaseConfig(name, defaultHost, writeLockTimeout, modules, schemaChangeListeners, durableHost, rehydrateMode,
                size);
    }
}
