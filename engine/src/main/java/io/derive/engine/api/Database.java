package io.derive.engine.api;

/**
 * An open Derive database: its catalog, its tables and the sessions that use it. It is
 * thread-safe: open it once (with {@code io.derive.engine.Derive}) and share it between threads;
 * each thread works through {@link Session}s of its own.
 */
public interface Database extends AutoCloseable {

    /** The name given when the database was opened, as used in logs and error messages. */
    String name();

    /**
     * A new session. Sessions are cheap and not thread-safe.
     *
     * @throws DeriveException with {@link DeriveException#TRANSACTION_STATE} once the database is closed
     */
    Session openSession();

    /**
     * What the open did with each materialized view of a durable database (adopted, refilled or
     * failed, and why); {@link RehydrateReport#NONE} for a database that is not durable.
     */
    RehydrateReport rehydrateReport();

    /**
     * Closes every table module, recording a clean close for a durable database. Sessions still
     * open can no longer be used meaningfully. Closing twice does nothing.
     */
    @Override
    void close();
}
