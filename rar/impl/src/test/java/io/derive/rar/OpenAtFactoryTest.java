package io.derive.rar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.derive.client.DeriveConnectionFactory;
import io.derive.derby.DerbyTableModule;
import io.derive.engine.api.DatabaseStatus;

import java.nio.file.Files;
import java.nio.file.Path;

import jakarta.resource.ResourceException;
import jakarta.resource.spi.ConnectionManager;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The adapter opens a database when the container makes its connection factory, before any
 * connection is asked for; the factory then tells where the database stands.
 */
class OpenAtFactoryTest {

    @TempDir
    Path directory;

    private static final ConnectionManager MANAGER = (mcf, info) -> mcf.createManagedConnection(null, info).getConnection(null, info);

    @Test
    void makingTheConnectionFactoryOpensTheDurableDatabase() throws Exception {
        DeriveResourceAdapter adapter = startedAdapter();
        try {
            DeriveConnectionFactory connections = (DeriveConnectionFactory) factoryIn(adapter, directory).createConnectionFactory(MANAGER);

            assertThat(Files.isDirectory(DerbyTableModule.derbyDirectory(directory))).isTrue();
            assertThat(connections.status().state()).isEqualTo(DatabaseStatus.State.OPEN);
        } finally {
            adapter.stop();
        }
    }

    @Test
    void theFactoryOfAStoppedAdapterReportsItsDatabaseClosed() throws Exception {
        DeriveResourceAdapter adapter = startedAdapter();
        DeriveConnectionFactory connections = (DeriveConnectionFactory) factoryIn(adapter, directory).createConnectionFactory(MANAGER);

        adapter.stop();

        assertThat(connections.status().state()).isEqualTo(DatabaseStatus.State.CLOSED);
    }

    @Test
    void aDatabaseThatCannotBeOpenedIsReportedFailedWithTheReason() throws Exception {
        DeriveResourceAdapter adapter = startedAdapter();
        try {
            DeriveManagedConnectionFactory factory = factoryIn(adapter, directory);
            factory.setDefaultHost("no-such-host");

            assertThatThrownBy(() -> factory.createConnectionFactory(MANAGER)).isInstanceOf(ResourceException.class);
            DatabaseStatus status = factory.status();
            assertThat(status.state()).isEqualTo(DatabaseStatus.State.FAILED);
            assertThat(status.detail()).startsWith("database 'opened-early' could not be opened: ").contains("no-such-host");
        } finally {
            adapter.stop();
        }
    }

    private static DeriveResourceAdapter startedAdapter() throws Exception {
        DeriveResourceAdapter adapter = new DeriveResourceAdapter();
        adapter.start(null);
        return adapter;
    }

    private static DeriveManagedConnectionFactory factoryIn(DeriveResourceAdapter adapter, Path databaseDirectory) throws Exception {
        DeriveManagedConnectionFactory factory = new DeriveManagedConnectionFactory();
        factory.setDatabaseName("opened-early");
        factory.setDefaultHost("derby");
        factory.setDatabaseDirectory(databaseDirectory.toString());
        factory.setResourceAdapter(adapter);
        return factory;
    }
}
