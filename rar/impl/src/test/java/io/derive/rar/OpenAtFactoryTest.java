package io.derive.rar;

import static org.assertj.core.api.Assertions.assertThat;

import io.derive.derby.DerbyTableModule;

import java.nio.file.Files;
import java.nio.file.Path;

import jakarta.resource.spi.ConnectionManager;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The adapter opens a database when the container makes its connection factory, before any connection is asked for. */
class OpenAtFactoryTest {

    @TempDir
    Path directory;

    @Test
    void makingTheConnectionFactoryOpensTheDurableDatabase() throws Exception {
        DeriveResourceAdapter adapter = new DeriveResourceAdapter();
        adapter.start(null);
        try {
            DeriveManagedConnectionFactory factory = new DeriveManagedConnectionFactory();
            factory.setDatabaseName("opened-early");
            factory.setDefaultHost("derby");
            factory.setDatabaseDirectory(directory.toString());
            factory.setResourceAdapter(adapter);
            ConnectionManager manager = (mcf, info) -> mcf.createManagedConnection(null, info).getConnection(null, info);

            factory.createConnectionFactory(manager);

            assertThat(Files.isDirectory(DerbyTableModule.derbyDirectory(directory))).isTrue();
        } finally {
            adapter.stop();
        }
    }
}
