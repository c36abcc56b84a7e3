package io.derive.rar;

import static org.assertj.core.api.Assertions.assertThat;

import io.derive.client.DeriveConnection;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code derbyLockTimeoutSeconds} property reaches Derby's own lock settings of the database. */
class DerbyLockTimeoutPropertyTest {

    @TempDir
    Path directory;

    @Test
    void theConfiguredLockTimeoutIsDerbysWaitTimeoutAndHalfOfItItsDeadlockTimeout() throws Exception {
        DeriveResourceAdapter adapter = new DeriveResourceAdapter();
        adapter.start(null);
        DeriveManagedConnectionFactory factory = new DeriveManagedConnectionFactory();
        factory.setDatabaseName("lock-timeout");
        factory.setDefaultHost("derby");
        factory.setDatabaseDirectory(directory.toString());
        factory.setDerbyLockTimeoutSeconds(6);
        factory.setResourceAdapter(adapter);
        try (DeriveConnection c = (DeriveConnection) factory.createManagedConnection(null, null).getConnection(null, null)) {
            c.execute("create table t (k integer primary key)");
        }
        adapter.stop();

        String url = "jdbc:derby:" + directory.resolve("derby");
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            assertThat(property(s, "derby.locks.waitTimeout")).isEqualTo("6");
            assertThat(property(s, "derby.locks.deadlockTimeout")).isEqualTo("3");
        } finally {
            shutDown(url);
        }
    }

    private static String property(Statement s, String name) throws SQLException {
        try (ResultSet rs = s.executeQuery("values syscs_util.syscs_get_database_property('" + name + "')")) {
            rs.next();
            return rs.getString(1);
        }
    }

    private static void shutDown(String url) {
        try {
            DriverManager.getConnection(url + ";shutdown=true").close();
        } catch (SQLException expected) {
            // Derby reports a completed shutdown as an SQLException (08006).
        }
    }
}
