package io.derive.engine.txn;

import io.derive.engine.schema.Catalog;
import io.derive.engine.schema.TableSchema;

/**
 * Where a durable database writes its catalog. {@link Transaction#prepare()} calls it for a
 * transaction that changed the catalog, before it prepares its connections, so that the
 * catalog rows are written through the transaction's own connections and commit (or roll back)
 * with its data in one host transaction.
 */
public interface CatalogPersistence {

    /**
     * Writes what changed from {@code before} (the committed catalog) to {@code after} (the
     * transaction's) through connections of {@code transaction}.
     */
    void stage(Transaction transaction, Catalog before, Catalog after);

    /**
     * Writes, through connections of {@code transaction}, the definition of {@code view} — a
     * view pending a deferred rehydrate that the transaction refills — as trusted: once the
     * transaction commits, its rows are its body's and the next open may adopt them.
     */
    void refilled(Transaction transaction, TableSchema view);

    /**
     * A transaction that wrote is about to prepare its connections: whatever the database must
     * record durably before a write after its open can become durable, it records now (a durable
     * database marks itself open, so that a crash from here on makes the next open distrust
     * what its last clean close stored).
     */
    void writing();
}
