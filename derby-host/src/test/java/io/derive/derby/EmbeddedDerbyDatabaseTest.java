package io.derive.derby;

import io.derive.engine.api.DeriveException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import javax.sql.XAConnection;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EmbeddedDerbyDatabaseTest {

    @TempDir
    Path dir;

    @Test
    void inMemoryDatabaseIsCreatedAndUsable() throws SQLException {
        try (EmbeddedDerbyDatabase db = EmbeddedDerbyDatabase.openInMemory(uniqueName());
             Connection c = db.connection()) {
            createItems(c);
            execute(c, """
                    insert into items values (1, 'one'), (2, 'two')
                    """);

            assertThat(names(c)).containsExactly("one", "two");
            assertThat(db.location()).startsWith("memory:");
        }
    }

    @Test
    void directoryDatabaseKeepsItsDataAcrossShutdownAndReopen() throws SQLException {
        Path location = dir.resolve("db");
        try (EmbeddedDerbyDatabase db = EmbeddedDerbyDatabase.open(location);
             Connection c = db.connection()) {
            createItems(c);
            execute(c, """
                    insert into items values (1, 'kept')
                    """);
        }

        try (EmbeddedDerbyDatabase reopened = EmbeddedDerbyDatabase.open(location);
             Connection c = reopened.connection()) {
            assertThat(names(c)).containsExactly("kept");
        }
    }

    @Test
    void xaBranchCommitsAnInsertInTwoPhases() throws Exception {
        try (EmbeddedDerbyDatabase db = EmbeddedDerbyDatabase.openInMemory(uniqueName())) {
            try (Connection c = db.connection()) {
                createItems(c);
            }
            XAConnection xa = db.xaConnection();
            try {
                XAResource resource = xa.getXAResource();
                Xid xid = new TestXid(1);
                resource.start(xid, XAResource.TMNOFLAGS);
                try (Connection branch = xa.getConnection()) {
                    execute(branch, """
                            insert into items values (7, 'in branch')
                            """);
                }
                resource.end(xid, XAResource.TMSUCCESS);

                assertThat(resource.prepare(xid)).isEqualTo(XAResource.XA_OK);
                resource.commit(xid, false);
            } finally {
                xa.close();
            }

            try (Connection c = db.connection()) {
                assertThat(names(c)).containsExactly("in branch");
            }
        }
    }

    @Test
    void openingAtAnUnusableLocationNamesTheDatabaseAndDerbysReason() throws Exception {
        Path file = Files.writeString(dir.resolve("not-a-directory"), "x");

        assertThatThrownBy(() -> EmbeddedDerbyDatabase.open(file))
                .isInstanceOf(DeriveException.class)
                .hasMessageStartingWith("Derby database '" + file.toAbsolutePath() + "': cannot open: ")
                .hasMessageContaining("already exists")
                .hasMessageContaining("SQLState XJ041")
                .hasCauseInstanceOf(SQLException.class);
    }

    @Test
    void closedDatabaseRefusesConnections() {
        EmbeddedDerbyDatabase db = EmbeddedDerbyDatabase.openInMemory(uniqueName());
        db.close();

        assertThatThrownBy(db::connection)
                .isInstanceOf(DeriveException.class)
                .hasMessage("Derby database '" + db.location() + "' is closed");
    }

    @Test
    void closingTwiceIsHarmless() {
        EmbeddedDerbyDatabase db = EmbeddedDerbyDatabase.openInMemory(uniqueName());
        db.close();

        db.close();
    }

    private static String uniqueName() {
        return "test-" + UUID.randomUUID();
    }

    private static void createItems(Connection c) throws SQLException {
        execute(c, """
                create table items (id integer primary key, name varchar(40) not null)
                """);
    }

    private static void execute(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    private static List<String> names(Connection c) throws SQLException {
        List<String> names = new ArrayList<>();
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("""
                     select name from items order by id
                     """)) {
            while (rs.next()) {
                names.add(rs.getString(1));
            }
        }
        return names;
    }

    private record TestXid(int id) implements Xid {
        @Override
        public int getFormatId() {
            return 0x44525645;
        }

        @Override
        public byte[] getGlobalTransactionId() {
            return ("gtrid-" + id).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        }

        @Override
        public byte[] getBranchQualifier() {
            return ("bqual-" + id).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        }
    }
}
