package io.derive.engine.spi;

import java.util.List;

/**
 * A host: a table module that stores the rows of the tables created {@code using} it.
 *
 * <p>Modules are found with {@link java.util.ServiceLoader} or registered programmatically
 * through {@link io.derive.engine.api.DatabaseConfig#withModule}. One module instance serves one
 * {@link io.derive.engine.api.Database}: {@link #start(String)} is called once, before any other
 * method, with that database's name.
 *
 * <p>The engine calls {@link #create} when DDL creates a table and {@link HostedTable#drop()} when
 * the creating transaction rolls back or a drop commits. A table that is created then dropped and
 * created again is a new {@link HostedTable} (a new incarnation).
 */
public interface TableModule {

    /** The name statements use in {@code using name(args)}; lower case. */
    String name();

    /** Binds this module instance to the database it serves; called once. */
    default void start(String databaseName) {
    }

    /**
     * Creates empty storage for a table.
     *
     * @param shape the table's columns and physical key; the module stores rows in key order
     * @param args  the arguments of {@code using name(args)}, empty when none were given
     * @return the new incarnation
     * @throws io.derive.engine.api.DeriveException when the arguments are invalid or the
     *         storage cannot be created; nothing is left behind
     */
    HostedTable create(TableShape shape, List<String> args);

    /** Releases every resource of the module; the database is closing. */
    default void close() {
    }
}
