package io.derive.rar;

import io.derive.derby.DerbyTableModule;
import io.derive.engine.DatabaseConfig;
import io.derive.engine.RehydrateMode;
import io.derive.engine.api.DeriveException;
import io.derive.engine.api.Database;
import io.derive.engine.api.DatabaseStatus;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

import javax.security.auth.Subject;

import jakarta.resource.NotSupportedException;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.ConnectionManager;
import jakarta.resource.spi.ConnectionRequestInfo;
import jakarta.resource.spi.ManagedConnection;
import jakarta.resource.spi.ManagedConnectionFactory;
import jakarta.resource.spi.ResourceAdapter;
import jakarta.resource.spi.ResourceAdapterAssociation;
import jakarta.resource.spi.ResourceAdapterInternalException;
import jakarta.resource.spi.ValidatingManagedConnectionFactory;

/**
 * Creates managed connections to one Derive database, described by seven config properties:
 * {@code databaseName}, {@code defaultHost} (the table module for tables that name none,
 * {@code memory}), {@code writeLockTimeoutMillis}, {@code databaseDirectory} (when set, the
 * database is durable: its catalog and Derby tables live in that directory and are rehydrated
 * when the adapter first opens it; empty for a database that lives as long as the adapter),
 * {@code derbyLockTimeoutSeconds} (how long a Derby-hosted access waits for a row lock),
 * {@code rehydrateMode} ({@code inline} or {@code batch}) and {@code statementCacheSize} (how
 * many statement texts each managed connection keeps parsed, with a query's plan, for the next
 * request that runs the same text; 0 keeps none).
 */
public class DeriveManagedConnectionFactory
        implements ManagedConnectionFactory, ValidatingManagedConnectionFactory, ResourceAdapterAssociation {

    private static final long serialVersionUID = 1L;

    private String databaseName = "derive";
    private String defaultHost = "memory";
    private Long writeLockTimeoutMillis = 10_000L;
    private String databaseDirectory = "";
    private Integer derbyLockTimeoutSeconds = 10;
    private String rehydrateMode = "inline";
    private Integer statementCacheSize = DatabaseConfig.DEFAULT_STATEMENT_CACHE_SIZE;

    private transient DeriveResourceAdapter resourceAdapter;
    private transient PrintWriter logWriter;

    public String getDatabaseName() {
        return databaseName;
    }

    public void setDatabaseName(String databaseName) {
        this.databaseName = databaseName;
    }

    public String getDefaultHost() {
        return defaultHost;
    }

    public void setDefaultHost(String defaultHost) {
        this.defaultHost = defaultHost;
    }

    public Long getWriteLockTimeoutMillis() {
        return writeLockTimeoutMillis;
    }

    public void setWriteLockTimeoutMillis(Long writeLockTimeoutMillis) {
        this.writeLockTimeoutMillis = writeLockTimeoutMillis;
    }

    public String getDatabaseDirectory() {
        return databaseDirectory;
    }

    public void setDatabaseDirectory(String databaseDirectory) {
        this.databaseDirectory = databaseDirectory;
    }

    public Integer getDerbyLockTimeoutSeconds() {
        return derbyLockTimeoutSeconds;
    }

    public void setDerbyLockTimeoutSeconds(Integer derbyLockTimeoutSeconds) {
        this.derbyLockTimeoutSeconds = derbyLockTimeoutSeconds;
    }

    public String getRehydrateMode() {
        return rehydrateMode;
    }

    public void setRehydrateMode(String rehydrateMode) {
        this.rehydrateMode = rehydrateMode;
    }

    public Integer getStatementCacheSize() {
        return statementCacheSize;
    }

    public void setStatementCacheSize(Integer statementCacheSize) {
        this.statementCacheSize = statementCacheSize;
    }

    /**
     * @throws DeriveException for a negative or missing size, naming the property
     */
    private int statementCache() {
        if (statementCacheSize == null || statementCacheSize < 0) {
            throw new DeriveException(DeriveException.SYNTAX, "resource adapter property statementCacheSize of database '"
                    + databaseName + "' must be 0 or more, not " + statementCacheSize);
        }
        return statementCacheSize;
    }

    /**
     * {@code inline}: the open refills what it cannot adopt; {@code batch}: it leaves that to the
     * {@code mv-rehydrate} job, and those views are pending until it has refilled them.
     *
     * @throws DeriveException for any other value, naming the property
     */
    private RehydrateMode rehydrate() {
        return switch (rehydrateMode == null ? "" : rehydrateMode.trim().toLowerCase(java.util.Locale.ROOT)) {
            case "inline" -> RehydrateMode.INLINE;
            case "batch" -> RehydrateMode.DEFERRED;
            default -> throw new DeriveException(DeriveException.SYNTAX, "resource adapter property rehydrateMode of database '"
                    + databaseName + "' must be 'inline' or 'batch', not '" + rehydrateMode + "'");
        };
    }

    DatabaseConfig databaseConfig() {
        Duration timeout = Duration.ofMillis(writeLockTimeoutMillis);
        Duration derbyLockTimeout = Duration.ofSeconds(Math.max(1, derbyLockTimeoutSeconds));
        if (databaseDirectory == null || databaseDirectory.isBlank()) {
            return new DatabaseConfig(databaseName, defaultHost, timeout,
                    List.of(new DerbyTableModule().withLockTimeout(derbyLockTimeout))).withStatementCacheSize(statementCache());
        }
        DerbyTableModule derby = DerbyTableModule.inDirectory(Path.of(databaseDirectory)).withLockTimeout(derbyLockTimeout);
        return new DatabaseConfig(databaseName, defaultHost, timeout, List.of(derby), List.of(), derby.name())
                .withRehydrateMode(rehydrate()).withStatementCacheSize(statementCache());
    }

    /**
     * Starts opening the database here, when the container makes the factory (an application's
     * lookup, or Liberty's recovery at start), not at the first connection request: the open is
     * what rehydrates a durable database and finds the branches a crash left in doubt. It does not
     * wait for the open: an application that looks the factory up at its start would otherwise
     * not start until a long rehydrate is done, and Liberty opens its HTTP port only once the
     * applications have started (or its start timeout has passed), so not even a readiness check
     * could answer meanwhile. The
     * factory's {@code status()} tells when the database is open; a connection request waits for it.
     */
    @Override
    public Object createConnectionFactory(ConnectionManager manager) throws ResourceException {
        associatedAdapter().open(databaseConfig());
        return new DeriveConnectionFactoryImpl(this, manager);
    }

    /** Where this factory's database stands, without waiting for an open in progress. */
    DatabaseStatus status() {
        DeriveResourceAdapter ra = resourceAdapter;
        if (ra == null) {
            return DatabaseStatus.closed("database '" + databaseName + "' is not open: no resource adapter is associated");
        }
        return ra.status(databaseName);
    }

    /**
     * The database itself, for an operator's calls that take part in no transaction; waits for
     * an open in progress.
     */
    Database database() throws ResourceException {
        return associatedAdapter().database(databaseConfig());
    }

    @Override
    public Object createConnectionFactory() throws ResourceException {
        // Connectors spec: non-managed use is optional. Derive's transactions are meant to be
        // driven by an application server's transaction manager, so it is not offered.
        throw new NotSupportedException("Derive connections are only available through an application server");
    }

    @Override
    public ManagedConnection createManagedConnection(Subject subject, ConnectionRequestInfo info) throws ResourceException {
        DeriveResourceAdapter ra = associatedAdapter();
        DatabaseConfig config = databaseConfig();
        return new DeriveManagedConnection(this, ra.database(config), ra.transactions(config.name()));
    }

    private DeriveResourceAdapter associatedAdapter() throws ResourceAdapterInternalException {
        DeriveResourceAdapter ra = resourceAdapter;
        if (ra == null) {
            throw new ResourceAdapterInternalException("the managed connection factory is not associated with a resource adapter");
        }
        return ra;
    }

    @Override
    @SuppressWarnings("rawtypes")
    public ManagedConnection matchManagedConnections(Set candidates, Subject subject, ConnectionRequestInfo info) {
        // All connections of one factory are interchangeable: there is no per-user state.
        for (Object candidate : candidates) {
            if (candidate instanceof DeriveManagedConnection mc && mc.isUsable() && equals(mc.factory())) {
                return mc;
            }
        }
        return null;
    }

    @Override
    @SuppressWarnings({"rawtypes", "unchecked"})
    public Set getInvalidConnections(Set connections) {
        Set invalid = new HashSet<>();
        for (Object c : connections) {
            if (c instanceof DeriveManagedConnection mc && !mc.isUsable()) {
                invalid.add(mc);
            }
        }
        return invalid;
    }

    @Override
    public ResourceAdapter getResourceAdapter() {
        return resourceAdapter;
    }

    @Override
    public void setResourceAdapter(ResourceAdapter ra) throws ResourceException {
        // Connectors spec (ResourceAdapterAssociation): the association is made once and not changed.
        if (resourceAdapter != null && resourceAdapter != ra) {
            throw new jakarta.resource.spi.IllegalStateException("already associated with a resource adapter");
        }
        if (!(ra instanceof DeriveResourceAdapter derive)) {
            throw new ResourceAdapterInternalException("not a Derive resource adapter: " + ra);
        }
        resourceAdapter = derive;
    }

    @Override
    public void setLogWriter(PrintWriter out) {
        logWriter = out;
    }

    @Override
    public PrintWriter getLogWriter() {
        return logWriter;
    }

    // Connectors spec: a ManagedConnectionFactory must implement equals and hashCode over its
    // configuration, so that the container can tell whether two factories are the same pool.
    @Override
    public boolean equals(Object o) {
        return o instanceof DeriveManagedConnectionFactory other
                && Objects.equals(databaseName, other.databaseName)
                && Objects.equals(defaultHost, other.defaultHost)
                && Objects.equals(writeLockTimeoutMillis, other.writeLockTimeoutMillis)
                && Objects.equals(databaseDirectory, other.databaseDirectory)
                && Objects.equals(derbyLockTimeoutSeconds, other.derbyLockTimeoutSeconds)
                && Objects.equals(rehydrateMode, other.rehydrateMode)
                && Objects.equals(statementCacheSize, other.statementCacheSize);
    }

    @Override
    public int hashCode() {
        return Objects.hash(databaseName, defaultHost, writeLockTimeoutMillis, databaseDirectory, derbyLockTimeoutSeconds,
                rehydrateMode, statementCacheSize);
    }

    @Override
    public String toString() {
        return "DeriveManagedConnectionFactory[databaseName=" + databaseName + ", defaultHost=" + defaultHost
                + ", writeLockTimeoutMillis=" + writeLockTimeoutMillis + ", databaseDirectory=" + databaseDirectory
                + ", derbyLockTimeoutSeconds=" + derbyLockTimeoutSeconds + ", rehydrateMode=" + rehydrateMode
                + ", statementCacheSize=" + statementCacheSize + "]";
    }
}
