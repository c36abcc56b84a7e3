package io.derive.derby;

import io.derive.engine.api.DeriveException;

import java.lang.System.Logger.Level;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

import javax.sql.XAConnection;
import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;

/**
 * The Derby database behind one {@link DerbyTableModule}: session connections, the
 * autocommit connection DDL runs on, and the Derby names of the tables it stores.
 *
 * <p>Physical drops are deferred: the engine releases storage while the dropping (or a
 * compensating) transaction may still hold Derby locks on it, and a {@code DROP TABLE} on the
 * DDL connection would then wait on its own session. Drops run once a session transaction
 * ends; a drop that still cannot run stays queued for the next.
 */
final class DerbyStore implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(DerbyStore.class.getName());
    private static final String TABLE_EXISTS = "X0Y32";
    private static final String NO_SUCH_TABLE = "42Y55";

    private final EmbeddedDerbyDatabase database;
    private final String schemaPrefix;
    private final Connection ddl;
    private final int lockTimeoutSeconds;
    private volatile boolean locksConfigured;
    private final Set<String> reserved = new HashSet<>();
    private final Queue<String> pendingDrops = new ArrayDeque<>();
    /** Statements (and metadata queries) run on the DDL connection, but for the work of {@link #onOwnConnection}. */
    private final AtomicLong statements = new AtomicLong();
    private int catalogReads;
    /**
     * Every table of the database with its columns, read in one query when first needed and
     * forgotten when this store changes a table: an open reopens each of its tables and sweeps the
     * rest, and one query of Derby's catalog costs less than a metadata call per table.
     */
    private TableListing tables;
    /**
     * The listing the last clean close of a directory database left, until the first need of
     * {@link #tables} checks it against Derby's table ids; this store's close leaves its own.
     */
    private TableListing listedAtClose;

    /**
     * @param schemaPrefix for a store in a Derby database other stores share (the JVM's scratch
     *                     database of in-memory modules), the prefix that keeps this store's Derby
     *                     schemas apart; its tables are dropped at close and the database stays up.
     *                     Null for a database of its own, shut down at close.
     */
    DerbyStore(EmbeddedDerbyDatabase database, String schemaPrefix, int lockTimeoutSeconds) {
        this.database = database;
        this.schemaPrefix = schemaPrefix;
        this.lockTimeoutSeconds = lockTimeoutSeconds;
        this.listedAtClose = schemaPrefix == null ? database.directory().flatMap(TableListing::take).orElse(null) : null;
        this.ddl = database.connection();
    }

    /**
     * Makes the Derby database's lock properties this store's, before the first write of the
     * open: only writers take Derby locks (readers read uncommitted and take none), so an open
     * that only reads never asks for them.
     */
    void lockSettingsForWriters() {
        if (locksConfigured) {
            return;
        }
        synchronized (this) {
            if (!locksConfigured) {
                try {
                    configureLocks();
                } catch (SQLException e) {
                    throw failure("configure", e);
                }
                locksConfigured = true;
            }
        }
    }

    /**
     * Sets the lock properties of the Derby database where they differ. They are database
     * properties, kept across boots, and setting one is a logged write of its own: with the same
     * settings it reads them in one statement and writes none.
     */
    private void configureLocks() throws SQLException {
        Map<String, String> wanted = new LinkedHashMap<>();
        wanted.put("derby.locks.waitTimeout", Integer.toString(lockTimeoutSeconds));
        // A reader takes an intent lock on the table, which a writer's escalated table lock would
        // make it wait for: writers keep row locks however many rows they flush.
        wanted.put("derby.locks.escalationThreshold", Integer.toString(Integer.MAX_VALUE));
        wanted.put("derby.locks.deadlockTimeout", Integer.toString(Math.max(1, lockTimeoutSeconds / 2)));
        List<Map.Entry<String, String>> properties = List.copyOf(wanted.entrySet());
        List<Map.Entry<String, String>> changed = new ArrayList<>();
        try (Statement s = ddl.createStatement()) {
            statements.incrementAndGet();
            try (ResultSet rs = s.executeQuery("values (" + String.join(", ", properties.stream()
                    .map(p -> "syscs_util.syscs_get_database_property('" + p.getKey() + "')").toList()) + ")")) {
                rs.next();
                for (int i = 0; i < properties.size(); i++) {
                    if (!properties.get(i).getValue().equals(rs.getString(i + 1))) {
                        changed.add(properties.get(i));
                    }
                }
            }
        }
        for (Map.Entry<String, String> property : changed) {
            try (PreparedStatement set = ddl.prepareStatement("call syscs_util.syscs_set_database_property(?, ?)")) {
                statements.incrementAndGet();
                set.setString(1, property.getKey());
                set.setString(2, property.getValue());
                set.execute();
            }
        }
    }

    String location() {
        return database.location();
    }

    /** The Derby schema of the tables of an engine schema (or of the host's own system schema). */
    String derbySchema(String schema) {
        return schemaPrefix == null ? schema : schemaPrefix + schema;
    }

    /**
     * The connection of an engine session, from {@code xa}: no autocommit, read uncommitted (a
     * reader takes no row locks, so never waits for a writer; the before-images of keys in flight
     * give it the committed rows), and cursors closed at commit (Derby refuses holdable cursors on
     * an XA branch). Derby hands out one logical connection per XA connection at a time: a second
     * {@code getConnection} closes the first, so the session asks once.
     */
    Connection sessionConnection(XAConnection xa) {
        try {
            Connection c = xa.getConnection();
            c.setAutoCommit(false);
            c.setTransactionIsolation(Connection.TRANSACTION_READ_UNCOMMITTED);
            c.setHoldability(ResultSet.CLOSE_CURSORS_AT_COMMIT);
            return c;
        } catch (SQLException e) {
            throw failure("open a session on", e);
        }
    }

    XAConnection xaConnection() {
        return database.xaConnection();
    }

    /** The branches Derby holds prepared: those of live sessions and those a process that ended left in doubt. */
    List<Xid> inDoubt() {
        XAConnection xa = database.xaConnection();
        try {
            return List.of(xa.getXAResource().recover(XAResource.TMSTARTRSCAN | XAResource.TMENDRSCAN));
        } catch (SQLException e) {
            throw failure("list the in-doubt transactions of", e);
        } catch (XAException e) {
            throw xaFailure("list the in-doubt transactions of", e);
        } finally {
            closeQuietly(xa);
        }
    }

    /** Commits or rolls back a prepared branch that no session of this process carries. */
    void completeInDoubt(Xid xid, boolean commit) {
        XAConnection xa = database.xaConnection();
        try {
            XAResource resource = xa.getXAResource();
            if (commit) {
                resource.commit(xid, false);
            } else {
                resource.rollback(xid);
            }
        } catch (XAException e) {
            if (e.errorCode == XAException.XAER_NOTA) {
                throw new DeriveException(DeriveException.UNDEFINED_OBJECT, "Derby database '" + location()
                        + "' has no in-doubt transaction " + xid, e);
            }
            throw xaFailure((commit ? "commit" : "roll back") + " in-doubt transaction " + xid + " of", e);
        } catch (SQLException e) {
            throw failure((commit ? "commit" : "roll back") + " in-doubt transaction " + xid + " of", e);
        } finally {
            closeQuietly(xa);
            runPendingDrops();
        }
    }

    /** The error for a failed XA call, naming the action and the XA error code. */
    DeriveException xaFailure(String action, XAException x) {
        return new DeriveException(DeriveException.INTERNAL, "Derby database '" + location() + "': cannot " + action
                + " it: " + x.getMessage() + " (XA error " + x.errorCode + ")", x);
    }

    static void closeQuietly(XAConnection xa) {
        try {
            xa.close();
        } catch (SQLException e) {
            LOG.log(Level.DEBUG, "closing an XA connection failed", e);
        }
    }

    /**
     * Creates a table and returns its Derby name: {@code base}, or {@code base$2}, {@code base$3}…
     * when a table of that name exists or waits to be dropped. {@code columns} is the column list
     * of the {@code create table} statement.
     */
    synchronized String createTable(String schema, String base, String columns) {
        ensureSchema(schema);
        for (int n = 1; ; n++) {
            String name = n == 1 ? base : base + "$" + n;
            String qualified = DerbySql.qualified(schema, name);
            if (reserved.contains(qualified)) {
                continue;
            }
            try (Statement s = ddl.createStatement()) {
                statements.incrementAndGet();
                forgetTables();
                s.execute("create table " + qualified + " (" + columns + ")");
                reserved.add(qualified);
                return name;
            } catch (SQLException e) {
                if (!TABLE_EXISTS.equals(e.getSQLState())) {
                    throw failure("create table " + qualified + " in", e);
                }
            }
        }
    }

    /**
     * Takes over an existing table of an earlier open: true when it exists with exactly the
     * columns named (in order) and of the kinds given (compared by the first word of the Derby
     * type), false when there is no such table.
     *
     * @throws DeriveException when the table exists with other columns
     */
    synchronized boolean reopen(String schema, String name, java.util.Map<String, String> columns) {
        String qualified = DerbySql.qualified(schema, name);
        Map<String, String> found = new LinkedHashMap<>();
        tables().columns(qualified).forEach((column, type) -> found.put(column, kind(type)));
        if (found.isEmpty()) {
            return false;
        }
        java.util.Map<String, String> expected = new java.util.LinkedHashMap<>();
        columns.forEach((column, type) -> expected.put(column, kind(type)));
        if (!new java.util.ArrayList<>(found.entrySet()).equals(new java.util.ArrayList<>(expected.entrySet()))) {
            throw new DeriveException(DeriveException.INVALID_DEFINITION, "Derby database '" + database.location()
                    + "': table " + qualified + " has columns " + found + ", not the " + expected + " its definition needs");
        }
        reserved.add(qualified);
        return true;
    }

    private static String kind(String derbyType) {
        return derbyType.split("[ (]")[0].toUpperCase(java.util.Locale.ROOT);
    }

    /**
     * Drops every table outside Derby's own schemas and {@code systemSchema} that no table of
     * this open created or reopened.
     */
    synchronized void sweep(String systemSchema) {
        List<String> orphans = new ArrayList<>();
        for (String qualified : tables().names()) {
            String schema = DerbySql.parseIdentifiers(qualified).get(0);
            boolean ours = schemaPrefix == null ? !schema.startsWith("SYS") : schema.startsWith(schemaPrefix);
            if (ours && !schema.equals(derbySchema(systemSchema)) && !reserved.contains(qualified)) {
                orphans.add(qualified);
            }
        }
        for (String orphan : orphans) {
            LOG.log(Level.INFO, "dropping {0}: no table of the database uses it", orphan);
            pendingDrops.add(orphan);
        }
        runPendingDrops();
    }

    /** Queues a table for dropping; see the class comment. */
    synchronized void dropLater(String qualified) {
        pendingDrops.add(qualified);
    }

    /** Drops the queued tables that no transaction holds any more. */
    synchronized void runPendingDrops() {
        int attempts = pendingDrops.size();
        for (int i = 0; i < attempts; i++) {
            String qualified = pendingDrops.remove();
            try (Statement s = ddl.createStatement()) {
                s.setQueryTimeout(1);
                statements.incrementAndGet();
                forgetTables();
                s.execute("drop table " + qualified);
                reserved.remove(qualified);
            } catch (SQLException e) {
                if (NO_SUCH_TABLE.equals(e.getSQLState())) {
                    reserved.remove(qualified);
                } else {
                    LOG.log(Level.DEBUG, "drop of {0} deferred again: {1}", qualified, e.getMessage());
                    pendingDrops.add(qualified);
                }
            }
        }
    }

    /** Every table of the database with its columns, as {@link #tables} describes. */
    private TableListing tables() {
        if (tables != null) {
            return tables;
        }
        if (listedAtClose != null) {
            TableListing listed = listedAtClose;
            listedAtClose = null;
            if (listed.ids().equals(tableIds())) {
                tables = listed;
                return tables;
            }
            LOG.log(Level.INFO, "tables of {0} were created or dropped since its clean close: reading its catalog", database.location());
        }
        Map<String, TableListing.Table> read = new LinkedHashMap<>();
        statements.incrementAndGet();
        catalogReads++;
        try (Statement s = ddl.createStatement();
             ResultSet rs = s.executeQuery("select s.schemaname, t.tablename, t.tableid, c.columnname, c.columndatatype"
                     + " from sys.systables t join sys.sysschemas s on s.schemaid = t.schemaid"
                     + " join sys.syscolumns c on c.referenceid = t.tableid where t.tabletype = 'T'"
                     + " order by s.schemaname, t.tablename, c.columnnumber")) {
            while (rs.next()) {
                String id = rs.getString(3);
                read.computeIfAbsent(DerbySql.qualified(rs.getString(1), rs.getString(2)),
                        t -> new TableListing.Table(id, new LinkedHashMap<>())).columns().put(rs.getString(4), rs.getString(5));
            }
        } catch (SQLException e) {
            throw failure("read the tables of", e);
        }
        tables = new TableListing(read);
        return tables;
    }

    /** How many times this store has read the tables and columns of Derby's catalog. */
    synchronized int catalogReads() {
        return catalogReads;
    }

    /** Derby's ids of the database's tables, in a query much cheaper to compile than {@link #tables()}'s. */
    private Set<String> tableIds() {
        Set<String> ids = new HashSet<>();
        statements.incrementAndGet();
        try (Statement s = ddl.createStatement();
             ResultSet rs = s.executeQuery("select tableid from sys.systables where tabletype = 'T'")) {
            while (rs.next()) {
                ids.add(rs.getString(1));
            }
        } catch (SQLException e) {
            throw failure("read the table ids of", e);
        }
        return ids;
    }

    /** After a change to Derby's tables: neither what was read nor a listing describes them now. */
    private void forgetTables() {
        tables = null;
        listedAtClose = null;
    }

    /** Rows of a table, counted when a database opens (no session writes yet). */
    synchronized long countRows(String qualified) {
        statements.incrementAndGet();
        try (Statement s = ddl.createStatement();
             ResultSet rs = s.executeQuery("select count(*) from " + qualified)) {
            rs.next();
            return rs.getLong(1);
        } catch (SQLException e) {
            throw failure("count the rows of " + qualified + " in", e);
        }
    }

    /** The statements this store has run on the DDL connection, but for the work of {@link #onOwnConnection}. */
    long statementsExecuted() {
        return statements.get();
    }

    /** The DDL connection, for the callers that must run a whole transaction on their own. */
    synchronized <T> T onOwnConnection(SqlWork<T> work) {
        forgetTables();
        lockSettingsForWriters();
        try {
            ddl.setAutoCommit(false);
            try {
                T result = work.run(ddl);
                ddl.commit();
                return result;
            } catch (SQLException | RuntimeException e) {
                ddl.rollback();
                throw e;
            } finally {
                ddl.setAutoCommit(true);
            }
        } catch (SQLException e) {
            throw failure("write to", e);
        }
    }

    /**
     * A read on the DDL connection, in autocommit: unlike {@link #onOwnConnection} it neither
     * forgets the tables read from Derby's catalog nor makes the lock settings the writers' (an
     * open that only reads needs neither).
     */
    synchronized <T> T reading(SqlWork<T> work) {
        try {
            return work.run(ddl);
        } catch (SQLException e) {
            throw failure("read", e);
        }
    }

    /** JDBC work that may fail with an {@link SQLException}. */
    interface SqlWork<T> {
        T run(Connection connection) throws SQLException;
    }

    private void ensureSchema(String schema) {
        try (PreparedStatement p = ddl.prepareStatement("select 1 from sys.sysschemas where schemaname = ?")) {
            p.setString(1, schema);
            statements.incrementAndGet();
            try (ResultSet rs = p.executeQuery()) {
                if (rs.next()) {
                    return;
                }
            }
            try (Statement s = ddl.createStatement()) {
                statements.incrementAndGet();
                s.execute("create schema " + DerbySql.identifier(schema));
            }
        } catch (SQLException e) {
            throw failure("create schema " + schema + " in", e);
        }
    }

    DeriveException failure(String action, SQLException e) {
        return DerbyErrors.toDeriveException(database.location(), action, e);
    }

    /** The (now empty) schemas of a store in the shared scratch database. */
    private void dropOwnSchemas() {
        List<String> schemas = new ArrayList<>();
        try (PreparedStatement p = ddl.prepareStatement("select schemaname from sys.sysschemas where schemaname like ? escape '\\'")) {
            p.setString(1, schemaPrefix.replace("_", "\\_") + "%");
            statements.incrementAndGet();
            try (ResultSet rs = p.executeQuery()) {
                while (rs.next()) {
                    schemas.add(rs.getString(1));
                }
            }
            for (String schema : schemas) {
                try (Statement s = ddl.createStatement()) {
                    statements.incrementAndGet();
                    s.execute("drop schema " + DerbySql.identifier(schema) + " restrict");
                }
            }
        } catch (SQLException e) {
            LOG.log(Level.DEBUG, "schemas of {0} left in the scratch database: {1}", schemaPrefix, e.getMessage());
        }
    }

    @Override
    public synchronized void close() {
        if (schemaPrefix != null) {
            reserved.forEach(pendingDrops::add);
            reserved.clear();
        }
        runPendingDrops();
        if (schemaPrefix != null && pendingDrops.isEmpty()) {
            dropOwnSchemas();
        }
        if (!pendingDrops.isEmpty()) {
            LOG.log(Level.WARNING, "{0} tables of {1} could not be dropped at close", pendingDrops.size(), database.location());
        }
        TableListing listing = schemaPrefix == null && pendingDrops.isEmpty() ? tablesAtClose() : null;
        try {
            ddl.close();
        } catch (SQLException e) {
            LOG.log(Level.WARNING, "closing the DDL connection of " + database.location() + " failed", e);
        }
        if (schemaPrefix == null) {
            database.close();
            if (listing != null) {
                database.directory().ifPresent(listing::leave);
            }
        }
    }

    /**
     * The tables as they are now, for the next open's listing; null, and no listing, when Derby's
     * catalog cannot be read. A drop still queued at close leaves no listing either: the next open
     * then queries the catalog and its sweep drops the table.
     */
    private TableListing tablesAtClose() {
        try {
            return tables();
        } catch (DeriveException e) {
            LOG.log(Level.WARNING, "no table listing for the next open of " + database.location() + ": " + e.getMessage());
            return null;
        }
    }
}
