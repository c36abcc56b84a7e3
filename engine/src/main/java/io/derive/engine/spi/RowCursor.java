package io.derive.engine.spi;

import java.util.Iterator;

/**
 * Rows in key order, produced lazily. The consumer closes the cursor when done, also when it
 * stops early; a host may hold resources (a JDBC result set) until then.
 */
public interface RowCursor extends Iterator<Object[]>, AutoCloseable {

    /** Releases the cursor's resources; idempotent. */
    @Override
    void close();
}
