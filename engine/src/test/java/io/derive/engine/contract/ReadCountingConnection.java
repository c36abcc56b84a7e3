package io.derive.engine.contract;

import io.derive.engine.spi.HostedTable;
import io.derive.engine.spi.KeyRange;
import io.derive.engine.spi.RowCursor;
import io.derive.engine.spi.TableConnection;

import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link TableConnection} that counts the rows it hands out — found by {@code get}, or taken
 * from a scan or an index scan — so a test can tell a seek from a read of many rows.
 */
public final class ReadCountingConnection implements TableConnection {
    private final TableConnection delegate;
    private final AtomicLong rowsRead;

    public ReadCountingConnection(TableConnection delegate, AtomicLong rowsRead) {
        this.delegate = delegate;
        this.rowsRead = rowsRead;
    }

    @Override
    public HostedTable table() {
        return delegate.table();
    }

    @Override
    public Optional<Object[]> get(Object[] key) {
        Optional<Object[]> row = delegate.get(key);
        row.ifPresent(r -> rowsRead.incrementAndGet());
        return row;
    }

    @Override
    public RowCursor scan(Object[] prefix, boolean descending) {
        return counted(delegate.scan(prefix, descending));
    }

    @Override
    public RowCursor scan(KeyRange range, boolean descending) {
        return counted(delegate.scan(range, descending));
    }

    @Override
    public RowCursor scanIndex(String index, Object[] prefix) {
        return counted(delegate.scanIndex(index, prefix));
    }

    @Override
    public RowCursor scanIndex(String index, Object[] prefix, boolean descending) {
        return counted(delegate.scanIndex(index, prefix, descending));
    }

    @Override
    public RowCursor scanIndex(String index, KeyRange range) {
        return counted(delegate.scanIndex(index, range));
    }

    private RowCursor counted(RowCursor rows) {
        return counted(rows, rowsRead);
    }

    /** {@code rows}, counting each row it hands out in {@code rowsRead}. */
    public static RowCursor counted(RowCursor rows, AtomicLong rowsRead) {
        return new RowCursor() {
            @Override
            public boolean hasNext() {
                return rows.hasNext();
            }

            @Override
            public Object[] next() {
                Object[] row = rows.next();
                rowsRead.incrementAndGet();
                return row;
            }

            @Override
            public void close() {
                rows.close();
            }
        };
    }

    @Override
    public void put(Object[] row) {
        delegate.put(row);
    }

    @Override
    public void delete(Object[] key) {
        delegate.delete(key);
    }

    @Override
    public boolean hasPendingWrites() {
        return delegate.hasPendingWrites();
    }

    @Override
    public void savepoint(int depth) {
        delegate.savepoint(depth);
    }

    @Override
    public void releaseSavepoint(int depth) {
        delegate.releaseSavepoint(depth);
    }

    @Override
    public void rollbackToSavepoint(int depth) {
        delegate.rollbackToSavepoint(depth);
    }

    @Override
    public void prepare() {
        delegate.prepare();
    }

    @Override
    public boolean commitsDurably() {
        return delegate.commitsDurably();
    }

    @Override
    public void commit() {
        delegate.commit();
    }

    @Override
    public void rollback() {
        delegate.rollback();
    }
}
