package io.derive.engine.spi;

import io.derive.engine.api.DeriveException;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import javax.transaction.xa.Xid;

/**
 * A host: a table module that stores the rows of the tables created {@code using} it.
 *
 * <p>Modules are found with {@link java.util.ServiceLoader} or registered programmatically
 * through {@link io.derive.engine.DatabaseConfig#withModule}. One module instance serves one
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

    /**
     * A module of this kind that keeps its tables — and the catalog of a durable database — in
     * {@code directory}, creating what is missing there; empty for a host that keeps nothing
     * across opens (the default). {@code Derive.open(Path)} uses the first module that offers one.
     */
    default Optional<TableModule> durableAt(Path directory) {
        return Optional.empty();
    }

    /**
     * A table of the host's own, outside every user schema, reopened with its rows when it
     * exists and created empty otherwise: where a durable database keeps its catalog. Its
     * {@link HostedTable#inDoubtWriters()} say whether an in-doubt branch wrote it. Empty for
     * a host that keeps nothing across opens (the default).
     *
     * @throws io.derive.engine.api.DeriveException when the table exists in another shape
     */
    default Optional<HostedTable> systemTable(String name, TableShape shape) {
        return Optional.empty();
    }

    /**
     * Storage an earlier open of the same database created, found by the
     * {@link HostedTable#storageId()} it reported then, with its committed rows. Empty when the
     * host keeps nothing across opens (the default) or no such storage exists any more.
     *
     * @param committedRows the table's row count the engine stored at the last clean close, which
     *                      the host takes as its {@link HostedTable#committedRowCount()} without
     *                      counting; empty when the last close was not clean, and the host counts
     *                      — except storage an in-doubt branch wrote
     *                      ({@link HostedTable#inDoubtWriters()}), counted once that completes
     * @throws io.derive.engine.api.DeriveException when the storage exists but does not hold
     *         rows of {@code shape}
     */
    default Optional<HostedTable> reopen(String storageId, TableShape shape, java.util.OptionalLong committedRows) {
        return Optional.empty();
    }

    /**
     * Called once after a durable database has reopened all its tables: releases the storage of
     * this host that none of them uses (left behind by a crash between a drop's commit and the
     * release of its storage). Does nothing by default.
     */
    default void sweep() {
    }

    /**
     * The collation this module compares the text columns of a table's physical key under when
     * the table declares none for them, as its {@code using} arguments ask; empty (the default)
     * to keep each column's declared collation. The engine then declares that collation on those
     * columns, so its own comparisons and the host's agree.
     *
     * @throws io.derive.engine.api.DeriveException when the arguments are invalid
     */
    default Optional<io.derive.engine.types.Collation> keyCollation(List<String> args) {
        return Optional.empty();
    }

    /**
     * The global-transaction branches this host has prepared ({@link TableConnection#prepareDurably})
     * and not yet seen decided, those an earlier process left in doubt included; empty for a
     * host that keeps nothing across a crash (the default).
     *
     * @throws io.derive.engine.api.DeriveException when the host cannot read them
     */
    default List<Xid> inDoubt() {
        return List.of();
    }

    /**
     * Commits ({@code commit}) or rolls back an in-doubt branch that no live transaction of this
     * module carries — one a process that ended prepared. The host's locks on what the branch
     * wrote are released, and the tables whose {@link HostedTable#inDoubtWriters()} no longer
     * list any branch are counted and get the index builds they deferred, before this returns.
     *
     * @throws io.derive.engine.api.DeriveException {@link io.derive.engine.api.DeriveException#UNDEFINED_OBJECT}
     *         when the host has no such branch (the default)
     */
    default void completeInDoubt(Xid xid, boolean commit) {
        throw new DeriveException(DeriveException.UNDEFINED_OBJECT,
                "table module '" + name() + "' has no in-doubt branch " + xid);
    }

    /** Releases every resource of the module; the database is closing. */
    default void close() {
    }
}
