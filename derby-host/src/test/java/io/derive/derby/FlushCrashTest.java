package io.derive.derby;

import io.derive.engine.Derive;
import io.derive.engine.api.Database;
import io.derive.engine.api.Row;
import io.derive.engine.api.Session;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A crash inside a flush, after a batch of the transaction's rows has reached Derby and before
 * Derby commits: a child JVM halts there ({@code Runtime.halt}, through the test hook
 * {@code derive.derby.testHaltAfterFlushBatches}), and the reopened database holds nothing of
 * that transaction, its views equal to their bodies.
 */
class FlushCrashTest {
    private static final String SCHEMA = """
            create table src (k integer primary key, g integer not null, v integer not null);
            create materialized view mv_proj as select k, v from src;
            create materialized view mv_group as select g, count(*) as n, sum(v) as total from src group by g;
            """;

    @Test
    void aTransactionHaltedInsideItsFlushIsWhollyAbsentAfterReopen(@TempDir Path directory) throws Exception {
        try (Database db = Derive.open(directory); Session s = db.openSession()) {
            for (String statement : SCHEMA.split(";")) {
                if (!statement.isBlank()) {
                    s.execute(statement);
                }
            }
            s.execute("insert into src values (1, 1, 10), (2, 2, 20), (3, 1, 30)");
        }

        Path log = directory.resolve("child.log");
        Process child = new ProcessBuilder(java(), "-Xmx256m", "-Dderive.derby.testHaltAfterFlushBatches=2",
                "-Dderby.stream.error.file=" + directory.resolve("derby-child.log"),
                "-cp", System.getProperty("java.class.path"), FlushCrashChild.class.getName(), directory.toString())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        assertThat(child.waitFor(120, TimeUnit.SECONDS)).as("the child ends").isTrue();
        assertThat(child.exitValue()).as("the child halted inside its flush; its output: %s", Files.readString(log))
                .isEqualTo(Flush.HALTED);
        assertThat(Files.readString(log)).contains(FlushCrashChild.COMMITTING);

        try (Database db = Derive.open(directory); Session s = db.openSession()) {
            assertThat(values(s, "select k from src order by k")).containsExactly(List.of(1L), List.of(2L), List.of(3L));
            assertThat(values(s, "select k, v from mv_proj order by k"))
                    .isEqualTo(values(s, "select k, v from src order by k"));
            assertThat(values(s, "select g, n, total from mv_group order by g"))
                    .isEqualTo(values(s, "select g, count(*), sum(v) from src group by g order by g"));
        }
    }

    private static List<List<Object>> values(Session s, String sql) {
        return s.execute(sql).rows().stream().map(Row::values).toList();
    }

    private static String java() {
        return ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }
}
