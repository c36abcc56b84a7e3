package io.derive.derby.indoubt;

import io.derive.derby.DerbyTableModule;
import io.derive.derby.EmbeddedDerbyDatabase;
import io.derive.engine.DatabaseConfig;
import io.derive.engine.Derive;
import io.derive.engine.api.BranchId;
import io.derive.engine.api.CommitVote;
import io.derive.engine.api.Database;
import io.derive.engine.api.Row;
import io.derive.engine.api.Session;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import javax.sql.XAConnection;
import javax.transaction.xa.XAException;
import javax.transaction.xa.Xid;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A durable database in a directory, opened and closed as a process that ends would: what the
 * in-doubt tests start from, with branches left prepared by closing the database undecided.
 */
final class DurableDirectory {
    private final Path directory;
    private int branches;

    DurableDirectory(Path directory) {
        this.directory = directory;
    }

    /** Runs the statements of {@code script} (separated by {@code ;} at a line end), each in autocommit. */
    void run(String script) {
        try (Database db = open(); Session s = db.openSession()) {
            for (String statement : statements(script)) {
                s.execute(statement);
            }
        }
    }

    /**
     * Runs {@code script} as one global-transaction branch of a new xid, prepares it and closes
     * the database without deciding it: the branch is left in doubt, as by a process that ended.
     */
    BranchId leavePrepared(String script) {
        BranchId xid = new BranchId(4711, ("in-doubt-" + ++branches).getBytes(StandardCharsets.US_ASCII), new byte[] {1});
        try (Database db = open(); Session s = db.openSession()) {
            s.begin(xid);
            for (String statement : statements(script)) {
                s.execute(statement);
            }
            assertThat(s.prepareCommit()).isEqualTo(CommitVote.PREPARED);
        }
        return xid;
    }

    Database open() {
        return Derive.open(directory);
    }

    /** The database with writers waiting at most {@code writeLockTimeout} for the write lock. */
    Database open(Duration writeLockTimeout) {
        return Derive.open(DatabaseConfig.inDirectory(directory).withWriteLockTimeout(writeLockTimeout));
    }

    /** The database over {@code module}, so that a test can count the statements its host runs. */
    Database open(DerbyTableModule module) {
        return Derive.open(DatabaseConfig.named("in-doubt").withModule(module).withDefaultHost("derby")
                .withDurableHost("derby"));
    }

    DerbyTableModule module() {
        return DerbyTableModule.inDirectory(directory);
    }

    /** Runs {@code sql} on the Derby database itself, the Derive database being closed. */
    void derby(String sql) throws SQLException {
        try (EmbeddedDerbyDatabase derby = EmbeddedDerbyDatabase.open(DerbyTableModule.derbyDirectory(directory));
             Connection c = derby.connection(); Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    /** Rolls branch {@code xid} back through Derby's own XA interface, the Derive database being closed. */
    void rollBackInDerby(Xid xid) throws SQLException, XAException {
        try (EmbeddedDerbyDatabase derby = EmbeddedDerbyDatabase.open(DerbyTableModule.derbyDirectory(directory))) {
            XAConnection xa = derby.xaConnection();
            try {
                xa.getXAResource().rollback(xid);
            } finally {
                xa.close();
            }
        }
    }

    /** The rows of query {@code sql} on the Derby database itself, the Derive database being closed. */
    List<List<Object>> derbyRows(String sql) throws SQLException {
        List<List<Object>> rows = new ArrayList<>();
        try (EmbeddedDerbyDatabase derby = EmbeddedDerbyDatabase.open(DerbyTableModule.derbyDirectory(directory));
             Connection c = derby.connection(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                List<Object> row = new ArrayList<>();
                for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                    row.add(rs.getObject(i));
                }
                rows.add(row);
            }
        }
        return rows;
    }

    static List<List<Object>> rows(Session s, String sql) {
        List<List<Object>> rows = new ArrayList<>();
        for (Row row : s.execute(sql).rows()) {
            rows.add(row.values());
        }
        return rows;
    }

    private static List<String> statements(String script) {
        return List.of(script.split(";\\s*\\n")).stream().filter(s -> !s.isBlank()).toList();
    }
}
