package io.derive.derby;

import io.derive.engine.api.DeriveException;
import org.apache.derby.jdbc.EmbeddedXADataSource;

import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.sql.XAConnection;

/**
 * One embedded Apache Derby database, booted (and created if it does not exist yet) when opened
 * and shut down when closed. It is the Derby host's only way into Derby: it hands out plain JDBC
 * connections and XA connections of the same database, so that a resource adapter's branch and an
 * autocommit session see the same data.
 *
 * <p>A database lives either in a directory ({@link #open(Path)}) or in the JVM's memory
 * ({@link #openInMemory(String)}); an in-memory database keeps its data after {@link #close()}
 * until the JVM ends, so opening the same name again sees it. Every failure surfaces as a
 * {@link DeriveException} whose message names the database's {@linkplain #location() location}
 * and carries Derby's own explanation and SQLState.
 *
 * <p>Thread-safe. Derby writes its diagnostic log to {@code derby.log} in {@code derby.system.home}
 * (the working directory by default) unless the system property {@code derby.stream.error.file}
 * says otherwise; embedders choose that, not this class, because it is JVM-wide.
 */
public final class EmbeddedDerbyDatabase implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(EmbeddedDerbyDatabase.class.getName());
    private static final String MEMORY_PREFIX = "memory:";
    /** Derby reports a successful shutdown of one database as this error. */
    private static final String DATABASE_SHUT_DOWN = "08006";
    /** ... and a successful shutdown of the whole Derby system as this one. */
    private static final String SYSTEM_SHUT_DOWN = "XJ015";

    private final String location;
    private final EmbeddedXADataSource dataSource;
    private final AtomicBoolean closed = new AtomicBoolean();

    private EmbeddedDerbyDatabase(String location) {
        this.location = location;
        // Connections handed out later must not re-create a database that vanished meanwhile, so
        // only the boot data source asks for creation.
        this.dataSource = dataSource(location);
    }

    /**
     * Opens the database stored in a directory, creating it there if the directory does not
     * exist yet.
     *
     * @throws DeriveException if Derby cannot create or boot the database there
     */
    public static EmbeddedDerbyDatabase open(Path directory) {
        Objects.requireNonNull(directory, "directory");
        return boot(directory.toAbsolutePath().normalize().toString());
    }

    /**
     * Opens the in-memory database of this name, creating it if this JVM has none of that name.
     *
     * @throws IllegalArgumentException if the name is blank
     * @throws DeriveException          if Derby cannot create or boot it
     */
    public static EmbeddedDerbyDatabase openInMemory(String name) {
        Objects.requireNonNull(name, "name");
        if (name.isBlank()) {
            throw new IllegalArgumentException("an in-memory Derby database needs a name");
        }
        return boot(MEMORY_PREFIX + name);
    }

    private static EmbeddedDerbyDatabase boot(String location) {
        EmbeddedXADataSource creating = dataSource(location);
        creating.setCreateDatabase("create");
        try {
            creating.getConnection().close();
        } catch (SQLException e) {
            throw DerbyErrors.toDeriveException(location, "open", e);
        }
        LOG.log(Level.INFO, "booted Derby database ''{0}''", location);
        return new EmbeddedDerbyDatabase(location);
    }

    private static EmbeddedXADataSource dataSource(String location) {
        EmbeddedXADataSource ds = new EmbeddedXADataSource();
        ds.setDatabaseName(location);
        return ds;
    }

    /**
     * Derby's name for the database: {@code memory:NAME} for an in-memory one, otherwise the
     * absolute path of its directory.
     */
    public String location() {
        return location;
    }

    /** The directory of a database {@linkplain #open(Path) stored in one}; empty for an in-memory database. */
    public Optional<Path> directory() {
        return location.startsWith(MEMORY_PREFIX) ? Optional.empty() : Optional.of(Path.of(location));
    }

    /**
     * A new JDBC connection in autocommit mode; the caller closes it.
     *
     * @throws DeriveException if the database is closed or Derby refuses the connection
     */
    public Connection connection() {
        requireOpen();
        try {
            return dataSource.getConnection();
        } catch (SQLException e) {
            throw DerbyErrors.toDeriveException(location, "connect to", e);
        }
    }

    /**
     * A new XA connection: its {@link XAConnection#getXAResource() XAResource} carries the
     * transaction branch of the connections it hands out. The caller closes it.
     *
     * @throws DeriveException if the database is closed or Derby refuses the connection
     */
    public XAConnection xaConnection() {
        requireOpen();
        try {
            return dataSource.getXAConnection();
        } catch (SQLException e) {
            throw DerbyErrors.toDeriveException(location, "open an XA connection to", e);
        }
    }

    /**
     * Shuts the database down, which closes every connection still open on it and, for a
     * directory database, leaves it consistent on disk. Closing twice does nothing.
     *
     * @throws DeriveException if Derby fails to shut the database down
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        EmbeddedXADataSource shuttingDown = dataSource(location);
        shuttingDown.setShutdownDatabase("shutdown");
        try {
            shuttingDown.getConnection().close();
        } catch (SQLException e) {
            if (DATABASE_SHUT_DOWN.equals(e.getSQLState()) || SYSTEM_SHUT_DOWN.equals(e.getSQLState())) {
                LOG.log(Level.INFO, "shut down Derby database ''{0}''", location);
                return;
            }
            throw DerbyErrors.toDeriveException(location, "shut down", e);
        }
        throw new DeriveException(DeriveException.INTERNAL,
                "Derby database '" + location + "': shutdown returned a connection instead of shutting down");
    }

    private void requireOpen() {
        if (closed.get()) {
            throw new DeriveException(DeriveException.TRANSACTION_STATE,
                    "Derby database '" + location + "' is closed");
        }
    }

    @Override
    public String toString() {
        return "EmbeddedDerbyDatabase[" + location + "]";
    }
}
