package io.derive.derby;

import io.derive.engine.spi.GroupedAggregate;
import io.derive.engine.spi.HostSession;
import io.derive.engine.spi.HostedTable;
import io.derive.engine.spi.KeyRange;
import io.derive.engine.spi.RowCursor;
import io.derive.engine.spi.TableConnection;

import java.util.List;
import java.util.Optional;

/**
 * One engine transaction's connection to a {@link DerbyTable}. Reads answer as of the session's
 * snapshot ({@link HostSession#readSequence()}) under the transaction's pending rows; writes are
 * checked at once and kept pending in the shared {@link DerbyTransaction}, which flushes them to
 * Derby when the transaction prepares. Savepoints, commit and rollback are the transaction's, so
 * every Derby table of a transaction moves in step.
 *
 * <p>Readers never wait: not for an open writer, nor for one whose branch is prepared or in
 * doubt; they read Derby without locks and the before-images the writers registered. A branch a
 * process that ended left in doubt registered none in this one: the engine opens no connection
 * to the tables it wrote until it is decided ({@link DerbyTable#inDoubtWriters()}).
 */
final class DerbyTableConnection implements TableConnection {
    private final DerbyTable table;
    private final DerbyTransaction transaction;
    private final HostSession session;

    DerbyTableConnection(DerbyTable table, DerbyTransaction transaction, HostSession session) {
        this.table = table;
        this.transaction = transaction;
        this.session = session;
    }

    DerbyTransaction transaction() {
        return transaction;
    }

    HostSession session() {
        return session;
    }

    boolean live() {
        return !transaction.ended();
    }

    @Override
    public HostedTable table() {
        return table;
    }

    DerbyTable derbyTable() {
        return table;
    }

    @Override
    public Optional<Object[]> get(Object[] key) {
        transaction.requireUsable();
        return Optional.ofNullable(effective(table.keyCodec().encode(key)));
    }

    /** The row the transaction sees at {@code key}: its own write, else the snapshot's. */
    private Object[] effective(byte[] key) {
        Object[] pending = transaction.pending(table).after(key);
        if (pending != null) {
            return pending == PendingRows.DELETED ? null : pending;
        }
        return table.read(transaction, key, session.readSequence());
    }

    @Override
    public RowCursor scan(Object[] prefix, boolean descending) {
        transaction.requireUsable();
        return ordered(table.scan(transaction, table.keyCodec().bounds(prefix), session.readSequence(), transaction.pending(table)),
                descending);
    }

    @Override
    public RowCursor scan(KeyRange range, boolean descending) {
        transaction.requireUsable();
        return ordered(table.scan(transaction, table.keyCodec().bounds(range), session.readSequence(),
                transaction.pending(table)), descending);
    }

    @Override
    public RowCursor scanIndex(String index, Object[] prefix) {
        return scanIndex(index, prefix, false);
    }

    /** Derby reads its index tables forward only, so a descending scan reads the prefix and reverses it. */
    @Override
    public RowCursor scanIndex(String index, Object[] prefix, boolean descending) {
        transaction.requireUsable();
        return ordered(table.index(index).scan(transaction, prefix, session.readSequence(), transaction.pending(table)),
                descending);
    }

    /** Derby groups the rows itself when its answer is exactly the engine's ({@link DerbyAggregate}). */
    @Override
    public Optional<List<Object[]>> aggregate(GroupedAggregate aggregate) {
        transaction.requireUsable();
        return DerbyAggregate.compute(table, transaction, aggregate, session.readSequence());
    }

    private static RowCursor ordered(RowCursor ascending, boolean descending) {
        return descending ? SnapshotScan.reversed(ascending) : ascending;
    }

    @Override
    public void put(Object[] row) {
        transaction.requireUsable();
        byte[] key = table.checkedKey(row);
        transaction.write(table, key, committed(key), row);
    }

    @Override
    public void delete(Object[] key) {
        transaction.requireUsable();
        byte[] encoded = table.keyCodec().encode(key);
        if (effective(encoded) != null) {
            transaction.write(table, encoded, committed(encoded), null);
        }
    }

    /** The flush's update counts catch a wrong {@code current}: an insert meets a row, an update or delete none. */
    @Override
    public void replace(Object[] current, Object[] row) {
        transaction.requireUsable();
        byte[] key = table.checkedKey(row);
        transaction.write(table, key, firstWrite(key) ? current : null, row);
    }

    @Override
    public void remove(Object[] current) {
        transaction.requireUsable();
        byte[] key = table.keyCodec().encode(table.shape().keyOf(current));
        transaction.write(table, key, firstWrite(key) ? current : null, null);
    }

    private boolean firstWrite(byte[] key) {
        return transaction.pending(table).before(key) == null;
    }

    /**
     * The committed row at {@code key} a first write replaces; {@code null} when the key was
     * written before (the pending rows keep it from then on). The transaction holds the key's
     * exclusive lock, and a statement whose snapshot a commit to the key overtook restarts, so
     * the snapshot's row is the latest committed one.
     */
    private Object[] committed(byte[] key) {
        return firstWrite(key) ? table.read(transaction, key, session.readSequence()) : null;
    }

    @Override
    public boolean hasPendingWrites() {
        return !transaction.pending(table).isEmpty();
    }

    @Override
    public void savepoint(int depth) {
        transaction.savepoint(depth);
    }

    @Override
    public void releaseSavepoint(int depth) {
        transaction.release(depth);
    }

    @Override
    public void rollbackToSavepoint(int depth) {
        transaction.rollbackTo(depth);
    }

    /** Writes the pending rows to Derby: the commit after it then fails only for Derby's own reasons. */
    @Override
    public void prepare() {
        transaction.flush();
    }

    /** Derby makes the commit durable only when it writes its log, which can still fail. */
    @Override
    public boolean commitsDurably() {
        return true;
    }

    @Override
    public void prepareDurably() {
        transaction.prepareDurably();
    }

    @Override
    public void commitDurably() {
        transaction.commitDurably();
    }

    @Override
    public void stage() {
        transaction.stage(session.oldestReadSequence());
    }

    @Override
    public void commit() {
        transaction.commit(session.commitSequence());
    }

    @Override
    public void rollback() {
        transaction.rollback();
    }
}
