package io.derive.engine.spi;

import java.util.Optional;

/**
 * A transaction's view of one {@link HostedTable}: the committed rows with this connection's
 * pending writes over them.
 *
 * <p>Reads return the <em>effective</em> state (pending over committed), so a transaction reads
 * its own writes. Writes go to pending state only; no other connection sees them before
 * {@link #commit()}. The engine has already checked every constraint before it writes: a
 * connection only stores.
 *
 * <p>Savepoints are numbered by depth: {@code savepoint(d)} marks the current pending state,
 * {@code rollbackToSavepoint(d)} restores it (the mark stays, as SQL's {@code rollback to} does),
 * {@code releaseSavepoint(d)} forgets marks at depth {@code d} and deeper. The engine opens one
 * savepoint per statement, which is how a failing statement leaves no trace.
 */
public interface TableConnection {

    HostedTable table();

    /** The effective row with this key, if any. */
    Optional<Object[]> get(Object[] key);

    /**
     * Effective rows in key order, starting at the first key that begins with {@code prefix} and
     * stopping when keys no longer begin with it. An empty prefix scans the whole table.
     */
    RowCursor scan(Object[] prefix, boolean descending);

    /**
     * Effective rows in key order whose key lies in {@code range}. Hosts with ordered storage
     * seek to the range; this default scans the prefix and skips keys outside the range.
     */
    default RowCursor scan(KeyRange range, boolean descending) {
        RowCursor prefixed = scan(range.prefix(), descending);
        KeyOrder order = table().shape().keyOrder();
        TableShape shape = table().shape();
        return new LookaheadCursor() {
            @Override
            protected Object[] advance() {
                while (prefixed.hasNext()) {
                    Object[] row = prefixed.next();
                    if (range.position(shape.keyOf(row), order) == 0) {
                        return row;
                    }
                }
                return null;
            }

            @Override
            public void close() {
                prefixed.close();
            }
        };
    }

    /**
     * Effective rows (pending over committed) that the secondary index {@code index} holds and
     * whose index key begins with {@code prefix}, in the index's order and then physical key
     * order; an empty prefix scans the whole index. A partial index yields only the rows its
     * filter accepts. The scan sees this connection's writes made before the call; the caller
     * does not write while the cursor is open.
     *
     * @param index  a name given to {@link HostedTable#createIndex}, compared case-insensitively
     * @param prefix leading index-key values, compared under the index's collations
     * @throws io.derive.engine.api.DeriveException when there is no such index
     */
    default RowCursor scanIndex(String index, Object[] prefix) {
        throw new io.derive.engine.api.DeriveException(io.derive.engine.api.DeriveException.FEATURE_NOT_SUPPORTED,
                "the host of table " + table().shape().qualifiedName() + " keeps no secondary indexes");
    }

    /**
     * {@link #scanIndex(String, Object[])} in either direction: descending hands out the same rows
     * in exactly the reverse order (index key descending, then physical key descending). The
     * engine uses it to find the greatest entry of a prefix (a retracted {@code max}) without
     * reading the prefix. This default reads the prefix forward and hands it out reversed, which
     * is correct but reads every row of the prefix; hosts with ordered storage walk backwards.
     */
    default RowCursor scanIndex(String index, Object[] prefix, boolean descending) {
        RowCursor forward = scanIndex(index, prefix);
        if (!descending) {
            return forward;
        }
        java.util.ArrayDeque<Object[]> reversed = new java.util.ArrayDeque<>();
        try (forward) {
            while (forward.hasNext()) {
                reversed.push(forward.next());
            }
        }
        return new LookaheadCursor() {
            @Override
            protected Object[] advance() {
                return reversed.poll();
            }

            @Override
            public void close() {
                reversed.clear();
            }
        };
    }

    /**
     * {@link #scanIndex(String, Object[])} narrowed to index keys in {@code range} (its prefix and
     * bounds are index-key values). This default returns the whole prefix: ranges only narrow, the
     * engine applies its own predicates to the rows it gets.
     */
    default RowCursor scanIndex(String index, KeyRange range) {
        return scanIndex(index, range.prefix());
    }

    /**
     * The groups of {@code aggregate} over the effective rows, computed by the host, or empty when
     * the host leaves it to the engine (the default): it may decline any aggregate at any time,
     * and must decline whenever it cannot answer exactly what the engine would from a full
     * {@link #scan}, as of the same state (for a host with snapshots: this connection's snapshot
     * with its own writes over it). Rows come in no particular order.
     */
    default Optional<java.util.List<Object[]>> aggregate(GroupedAggregate aggregate) {
        return Optional.empty();
    }

    /** Stores a row, replacing the effective row with the same key if there is one. */
    void put(Object[] row);

    /** Removes the effective row with this key; does nothing when there is none. */
    void delete(Object[] key);

    /**
     * {@link #put} for a caller that knows the effective row at {@code row}'s key: {@code current}
     * ({@code null}: there is none), because the engine's invariants imply it — a view's row that
     * the source rows before the change determine. A host may take {@code current} instead of
     * reading it (this default reads nothing either: {@code put} does what it needs). When
     * {@code current} proves wrong, a host must fail the write or the transaction's commit rather
     * than store a row the caller did not ask for: an insert that meets a stored row, or an update
     * or delete that meets none.
     */
    default void replace(Object[] current, Object[] row) {
        put(row);
    }

    /**
     * {@link #delete} of {@code current}, which the caller knows is the effective row at its key,
     * on the terms of {@link #replace}.
     */
    default void remove(Object[] current) {
        delete(table().shape().keyOf(current));
    }

    /** True when this connection holds pending writes. */
    boolean hasPendingWrites();

    void savepoint(int depth);

    void releaseSavepoint(int depth);

    void rollbackToSavepoint(int depth);

    /**
     * First step of a two-step commit: after it returns, {@link #commit()} must not fail for a
     * reason the host could have foreseen. Hosts without durable state do nothing.
     */
    default void prepare() {
    }

    /**
     * The first phase of a two-phase commit, after {@link #prepare()}: makes this connection's
     * pending changes survive a crash until {@link #commit()} or {@link #rollback()} decides
     * them — or, after a restart, {@link TableModule#completeInDoubt}. Called once per
     * connection, only when the transaction commits in two phases (a one-phase commit goes from
     * {@link #prepare()} straight to {@link #commit()}); after it, only commit or rollback
     * follow. A host that keeps nothing across a crash, or whose transaction is not a
     * {@linkplain HostSession#branch() branch}, has nothing to do (the default).
     *
     * @throws io.derive.engine.api.DeriveException when the changes cannot be made durable; the
     *         engine then rolls the transaction back
     */
    default void prepareDurably() {
    }

    /**
     * True for a connection whose {@link #commit()} can still fail after {@link #prepare()} — a
     * store that makes the commit durable only then, as Derby does with its log. The engine
     * commits these first, so that when such a commit fails no other connection has published
     * anything yet and the whole transaction rolls back. A transaction's connections of this
     * kind must belong to one commit domain (one host, one session resource).
     */
    default boolean commitsDurably() {
        return false;
    }

    /**
     * For a connection that {@linkplain #commitsDurably() commits durably}: makes its commit
     * durable before the engine gives the commit its sequence number, so that the durable part
     * of commits of different transactions runs side by side. Nothing becomes visible to other
     * statements: they keep reading the state before it until {@link #commit()} publishes it
     * under its number, which then must not fail. Called once, only on such connections; the
     * default does nothing, leaving all of it to {@link #commit()}.
     *
     * @throws io.derive.engine.api.DeriveException when the commit fails; nothing of it is durable
     */
    default void commitDurably() {
    }

    /**
     * Builds what {@link #commit()} will publish, once the commit holds this table's publish lock
     * and before it takes its sequence number: no other commit changes the table's committed
     * state between the two calls, and commits numbered later wait for this one to publish, so
     * the work done here rather than in {@link #commit()} does not hold them up. Called once per
     * connection, just before {@link #commit()}; the default builds nothing.
     */
    default void stage() {
    }

    /** Publishes pending writes to committed state atomically and ends the connection. */
    void commit();

    /** Discards pending writes and ends the connection. */
    void rollback();
}
