package io.derive.rar;

import static org.assertj.core.api.Assertions.assertThat;

import io.derive.client.DeriveConnection;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The test-only hook {@code derive.rar.testHaltAt} halts a child JVM at the point it names of a
 * two-phase commit, and in both places the branch is left prepared, in doubt at the next open.
 */
class XaFaultHookTest {

    static final Xid XID = ForeignXid.of(4711, "fault-hook", (byte) 1);

    @TempDir
    Path directory;

    @Test
    void afterPrepareHaltsBeforeThePrepareAnswersLeavingTheBranchInDoubt() throws Exception {
        List<String> printed = runChildHaltingAt(directory, "afterPrepare");

        assertThat(printed).isEmpty();
        assertThat(inDoubtAfterReopen()).containsExactly(XaCallJournal.format(XID));
    }

    @Test
    void beforeCommitHaltsOnceThePrepareHasAnsweredLeavingTheBranchInDoubt() throws Exception {
        List<String> printed = runChildHaltingAt(directory, "beforeCommit");

        assertThat(printed).containsExactly(XaFaultHookChild.PREPARED);
        assertThat(inDoubtAfterReopen()).containsExactly(XaCallJournal.format(XID));
    }

    /**
     * Creates table t in the durable database in {@code directory}, then runs the child, which
     * inserts row 2 under {@link #XID}; returns its standard output once it has halted.
     */
    static List<String> runChildHaltingAt(Path directory, String point) throws Exception {
        DeriveResourceAdapter adapter = started();
        try (DeriveConnection c = (DeriveConnection) factory(adapter, directory).createManagedConnection(null, null)
                .getConnection(null, null)) {
            c.execute("create table t (k integer primary key)");
        } finally {
            adapter.stop();
        }
        Path out = directory.resolve("child.out");
        Process child = new ProcessBuilder(java(), "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-D" + XaFaultHook.PROPERTY + "=" + point,
                "-Dderby.stream.error.file=" + directory.resolve("derby-child.log"),
                "-cp", System.getProperty("java.class.path"), XaFaultHookChild.class.getName(), directory.toString())
                .redirectOutput(out.toFile())
                .redirectError(directory.resolve("child.err").toFile()).start();
        assertThat(child.waitFor(120, TimeUnit.SECONDS)).as("the child ends").isTrue();
        assertThat(child.exitValue()).as("the child halted; its errors: %s", Files.readString(directory.resolve("child.err")))
                .isEqualTo(XaFaultHook.HALTED);
        return Files.readAllLines(out);
    }

    private List<String> inDoubtAfterReopen() throws Exception {
        DeriveResourceAdapter adapter = started();
        try {
            XAResource xa = ((DeriveManagedConnection) factory(adapter, directory).createManagedConnection(null, null)).getXAResource();
            return Arrays.stream(xa.recover(XAResource.TMSTARTRSCAN | XAResource.TMENDRSCAN))
                    .map(XaCallJournal::format).toList();
        } finally {
            adapter.stop();
        }
    }

    static DeriveManagedConnectionFactory factory(DeriveResourceAdapter adapter, Path databaseDirectory) throws Exception {
        DeriveManagedConnectionFactory factory = new DeriveManagedConnectionFactory();
        factory.setDatabaseName("fault-hook");
        factory.setDefaultHost("derby");
        factory.setDatabaseDirectory(databaseDirectory.toString());
        factory.setResourceAdapter(adapter);
        return factory;
    }

    static DeriveResourceAdapter started() throws Exception {
        DeriveResourceAdapter adapter = new DeriveResourceAdapter();
        adapter.start(null);
        return adapter;
    }

    private static String java() {
        return ProcessHandle.current().info().command().orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }
}
