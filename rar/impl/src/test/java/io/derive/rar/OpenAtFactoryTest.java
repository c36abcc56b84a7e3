package io.derive.rar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.derive.client.DeriveConnectionFactory;
import io.derive.derby.DerbyTableModule;
import io.derive.engine.api.DatabaseStatus;
import io.derive.engine.api.DeriveException;

import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Timer;

import jakarta.resource.spi.BootstrapContext;
import jakarta.resource.spi.ConnectionManager;
import jakarta.resource.spi.work.Work;
import jakarta.resource.spi.work.WorkManager;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The adapter starts opening a database when the container makes its connection factory, before
 * any connection is asked for, without waiting for the open; the factory tells where it stands.
 */
class OpenAtFactoryTest {

    @TempDir
    Path directory;

    /** Allocates each connection straight from the managed connection factory, as a container without pooling would. */
    static final ConnectionManager MANAGER = (mcf, info) -> mcf.createManagedConnection(null, info).getConnection(null, info);

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
    void makingTheConnectionFactoryDoesNotWaitForTheOpenWhichRunsAsTheContainersWork() throws Exception {
        List<Work> scheduled = new ArrayList<>();
        DeriveResourceAdapter adapter = new DeriveResourceAdapter();
        adapter.start(contextScheduling(scheduled));
        try {
            DeriveConnectionFactory connections = (DeriveConnectionFactory) factoryIn(adapter, directory).createConnectionFactory(MANAGER);

            assertThat(connections.status().state()).isEqualTo(DatabaseStatus.State.OPENING);
            assertThat(Files.exists(DerbyTableModule.derbyDirectory(directory))).isFalse();
            assertThat(scheduled).hasSize(1);
            scheduled.get(0).run();
            assertThat(connections.status().state()).isEqualTo(DatabaseStatus.State.OPEN);
        } finally {
            adapter.stop();
        }
    }

    @Test
    void aDatabaseThatCannotBeOpenedIsReportedFailedWithTheReasonAndRefusesConnections() throws Exception {
        DeriveResourceAdapter adapter = startedAdapter();
        try {
            DeriveManagedConnectionFactory factory = factoryIn(adapter, directory);
            factory.setDefaultHost("no-such-host");

            DeriveConnectionFactory connections = (DeriveConnectionFactory) factory.createConnectionFactory(MANAGER);

            DatabaseStatus status = connections.status();
            assertThat(status.state()).isEqualTo(DatabaseStatus.State.FAILED);
            assertThat(status.detail()).startsWith("database 'opened-early' could not be opened: ").contains("no-such-host");
            assertThatThrownBy(connections::getConnection).isInstanceOf(DeriveException.class).hasMessageContaining("no-such-host");
        } finally {
            adapter.stop();
        }
    }

    /** A bootstrap context whose work manager only collects the work scheduled on it (and which makes timers). */
    private static BootstrapContext contextScheduling(List<Work> scheduled) {
        WorkManager workManager = proxy(WorkManager.class, (method, args) -> {
            if (!method.getName().equals("scheduleWork")) {
                throw new UnsupportedOperationException(method.getName());
            }
            scheduled.add((Work) args[0]);
            return null;
        });
        return proxy(BootstrapContext.class, (method, args) -> switch (method.getName()) {
            case "getWorkManager" -> workManager;
            case "createTimer" -> new Timer("test-branch-timeouts", true);
            default -> throw new UnsupportedOperationException(method.getName());
        });
    }

    private interface Answer {
        Object answer(Method method, Object[] args);
    }

    private static <T> T proxy(Class<T> type, Answer answer) {
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type},
                (self, method, args) -> answer.answer(method, args)));
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
