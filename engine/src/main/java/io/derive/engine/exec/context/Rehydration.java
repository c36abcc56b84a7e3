package io.derive.engine.exec.context;

import io.derive.engine.spi.HostedTable;
import io.derive.engine.spi.IndexShape;
import io.derive.engine.spi.TableModule;
import io.derive.engine.spi.TableShape;

import java.util.Optional;

/**
 * What a durable database's open changes in DDL while it replays its stored catalog: tables get
 * their stored storage back instead of new storage, and an adopted materialized view takes its
 * backing's rows as they are instead of running its body, and secondary indexes get their
 * stored entries back instead of being built.
 */
public interface Rehydration {

    /** The stored storage of the table {@code shape} describes, when the catalog names some and its host still has it. */
    Optional<HostedTable> reopen(TableModule module, TableShape shape);

    /**
     * Has the host reattach the index it kept for the table {@code storage} stores, or, when it
     * keeps none it can trust, build it; a build is reported.
     */
    void restoreIndex(String schema, String table, HostedTable storage, IndexShape index);

    /** True while the derivation of this table (qualified name) is being attached without a fill. */
    boolean adopts(String qualifiedName);

    /**
     * True while the derivation of this table (qualified name), stale when the catalog was
     * stored, is being attached to refill it: its backing may then take the shape its body now
     * derives, as a refresh of the stale view would have given it.
     */
    boolean refillsStale(String qualifiedName);
}
