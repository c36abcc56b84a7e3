package io.derive.derby;

import io.derive.engine.spi.HostedTable;
import io.derive.engine.spi.KeyRange;
import io.derive.engine.spi.RowCursor;
import io.derive.engine.spi.TableConnection;

import java.util.Optional;

/**
 * One engine transaction's connection to a {@link DerbyTable}. Reads and writes go straight to
 * the session's Derby transaction, which is what makes them effective state: Derby shows a
 * transaction its own uncommitted rows. Savepoints, commit and rollback are the shared
 * {@link DerbyTransaction}'s, so every Derby table of a transaction moves in step.
 *
 * <p>Readers follow Derby's locking: reading a row another session has written but not yet
 * committed waits for that session, at most the database's lock timeout, and then fails with a
 * lock-timeout error.
 */
final class DerbyTableConnection implements TableConnection {
    private final DerbyTable table;
    private final DerbyTransaction transaction;
    private boolean wrote;

    DerbyTableConnection(DerbyTable table, DerbyTransaction transaction) {
        this.table = table;
        this.transaction = transaction;
    }

    DerbyTransaction transaction() {
        return transaction;
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
        return Optional.ofNullable(table.read(transaction, table.keyCodec().encode(key)));
    }

    @Override
    public RowCursor scan(Object[] prefix, boolean descending) {
        transaction.requireUsable();
        return table.scan(transaction, prefix, descending);
    }

    @Override
    public RowCursor scan(KeyRange range, boolean descending) {
        transaction.requireUsable();
        return table.scan(transaction, range, descending);
    }

    @Override
    public RowCursor scanIndex(String index, Object[] prefix) {
        transaction.requireUsable();
        return table.index(index).scan(transaction, prefix);
    }

    /** Derby reads its index tables forward only, so a descending scan reads the prefix and reverses it. */
    @Override
    public RowCursor scanIndex(String index, Object[] prefix, boolean descending) {
        transaction.requireUsable();
        ResultCursor rows = table.index(index).scan(transaction, prefix);
        if (descending) {
            rows.drainReversed();
        }
        return rows;
    }

    @Override
    public void put(Object[] row) {
        transaction.beforeWrite(table);
        wrote = true;
        byte[] key = table.keyCodec().encode(table.shape().keyOf(row));
        Object[] before = table.store(transaction, key, row);
        transaction.wrote(table, key, before, before == null ? 1 : 0);
    }

    @Override
    public void delete(Object[] key) {
        transaction.beforeWrite(table);
        byte[] encoded = table.keyCodec().encode(key);
        Object[] before = table.remove(transaction, encoded);
        if (before != null) {
            wrote = true;
            transaction.wrote(table, encoded, before, -1);
        }
    }

    @Override
    public boolean hasPendingWrites() {
        return wrote;
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
    public void commit() {
        transaction.commit();
    }

    @Override
    public void rollback() {
        transaction.rollback();
    }
}
