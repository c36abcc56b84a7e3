package io.derive.engine.spi;

import java.util.List;
import java.util.Optional;

import javax.transaction.xa.Xid;

/**
 * One incarnation of a table in a host: its committed rows, and the connections through which
 * transactions read and write them.
 *
 * <p>Committed state changes only when a {@link TableConnection} commits; a reader of committed
 * state sees all of a commit or none of it.
 */
public interface HostedTable {

    TableShape shape();

    /**
     * A fresh connection with empty pending state, for a transaction of {@code session}. The
     * engine registers it with that transaction and ends it with {@link TableConnection#commit()}
     * or {@link TableConnection#rollback()}. Connections of one transaction to tables of one host
     * may share whatever the host keeps in the session (one commit domain).
     */
    TableConnection connect(HostSession session);

    /**
     * What identifies this storage to {@link TableModule#reopen} in a later open of the same
     * database; empty for storage that does not outlive the database (the default).
     */
    default Optional<String> storageId() {
        return Optional.empty();
    }

    /** Rows in committed state; not meaningful while {@link #inDoubtWriters()} lists a branch. */
    long committedRowCount();

    /**
     * The branches of {@link TableModule#inDoubt()} that a process which ended left prepared
     * and that wrote this table's rows or index entries, as the host recorded before it prepared
     * them; a branch the host has no record of counts as having written every table. Each is
     * listed until {@link TableModule#completeInDoubt} completes it. While one is listed, what
     * the host holds for this table is of unknown outcome: the engine neither reads nor writes
     * it, the host does not count its rows at {@link TableModule#reopen} and defers the build of
     * an index {@link #createIndex} asks for, and does both when the last such branch completes.
     * Empty for a host that keeps nothing across a crash (the default).
     */
    default List<Xid> inDoubtWriters() {
        return List.of();
    }

    /**
     * The backing-host capability (semantics §7): present when this table can store the rows of a
     * materialized view. The same instance is returned every time.
     */
    Optional<BackingHost> backingHost();

    /**
     * Adds a secondary index, built at once over the committed rows; every connection (live or
     * later) keeps it over its pending rows from then on, and {@link TableConnection#scanIndex}
     * serves it. The index set is not transactional on its own: the engine calls this while the
     * creating transaction holds the catalog exclusive (no other transaction writes) and undoes it with {@link #dropIndex} when the creating
     * transaction (or a savepoint around it) rolls back. Hosts that keep no indexes leave the
     * default, which refuses.
     *
     * @throws io.derive.engine.api.DeriveException when an index of that name exists or the
     *         host cannot keep it; nothing is left behind
     */
    default void createIndex(IndexShape index) {
        throw new io.derive.engine.api.DeriveException(io.derive.engine.api.DeriveException.FEATURE_NOT_SUPPORTED,
                "the host of table " + shape().qualifiedName() + " keeps no secondary indexes");
    }

    /**
     * While a durable database reopens, attaches the secondary index {@code index} to the
     * storage this table kept for it in the earlier open (the {@link #storageId()} the catalog
     * stored names it), without building it — only when the host knows those entries current:
     * written in the same atomic host transactions as the table's rows, and never detached by a
     * {@link #dropIndex} since. Returns false when it keeps none it can trust (the default); the
     * engine then builds the index with {@link #createIndex} and reports the rebuild.
     */
    default boolean reopenIndex(IndexShape index) {
        return false;
    }

    /**
     * Removes a secondary index from committed state and from every connection; does nothing when
     * there is no index of that name. Like {@link #createIndex}, the engine makes it transactional
     * (it drops at commit, or compensates a rolled-back create).
     */
    default void dropIndex(String name) {
    }

    /**
     * Stores this table in a new shape, for {@code alter table}: returns the incarnation that
     * holds, in {@code newShape}, {@code rowMapping} applied to every row {@code connection}
     * sees (its effective state: committed rows with the altering transaction's pending writes).
     *
     * <p>Transactional by contract: the engine calls this while the altering transaction holds the
     * catalog exclusive (no other transaction writes), and the returned incarnation is reachable only through the altering transaction's catalog
     * until it commits. When the result is a new object, this incarnation stays as it is (readers
     * of the committed catalog keep using it) and the engine calls {@link #drop()} on this one
     * when the transaction commits, or on the new one when it (or a savepoint taken before the
     * alter) rolls back. A host that alters in place inside the connection's transaction returns
     * {@code this}. The new incarnation starts without secondary indexes; the engine re-creates
     * them with {@link #createIndex}. {@code connection} must not be used by the host after this
     * returns (the engine keeps it registered until the transaction ends).
     *
     * @param rowMapping maps a row of this shape to a row of {@code newShape}, values already
     *                   coerced; it may throw a {@link io.derive.engine.api.DeriveException}
     *                   (a value that does not fit), which the host lets through, leaving nothing behind
     * @param onDuplicateKey supplies the exception to throw when two mapped rows share a key
     *                   under {@code newShape} (a key column's type or collation changed)
     * @throws io.derive.engine.api.DeriveException when the host cannot reshape; the default refuses
     */
    default HostedTable reshape(TableConnection connection, TableShape newShape,
                                java.util.function.UnaryOperator<Object[]> rowMapping,
                                java.util.function.Supplier<? extends RuntimeException> onDuplicateKey) {
        throw new io.derive.engine.api.DeriveException(io.derive.engine.api.DeriveException.FEATURE_NOT_SUPPORTED,
                "the host of table " + shape().qualifiedName() + " cannot alter its shape");
    }

    /** Releases the storage. Called once, when the dropping transaction commits (or the creating one rolls back). */
    void drop();
}
