package io.derive.cli.slt;

import io.derive.cli.HostName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

class SltRunnerTest {
    private static final String TABLE = """
            statement ok
            CREATE TABLE t(a INTEGER, b TEXT)

            statement ok
            INSERT INTO t VALUES(3, 'c'), (1, 'a'), (2, 'b')

            """;

    @TempDir
    Path dir;

    private final SltRunner runner = new SltRunner(Duration.ofSeconds(10), HostName.MEMORY);

    @Test
    void passingRecordsAreCounted() throws IOException {
        FileResult result = run(TABLE + """
                query IT rowsort
                SELECT a, b FROM t
                ----
                1
                a
                2
                b
                3
                c

                statement error
                SELECT nothing FROM t
                """);

        assertThat(result.summary()).isEqualTo("f.test: 4 run, 4 passed, 0 failed, 0 skipped");
    }

    @Test
    void aWrongResultFailsTheRecordWithItsLine() throws IOException {
        FileResult result = run(TABLE + """
                query I nosort
                SELECT a FROM t ORDER BY a
                ----
                1
                2
                4
                """);

        assertThat(result.failed()).isEqualTo(1);
        assertThat(result.failures()).singleElement().asString()
                .startsWith("f.test:7: expected [1, 2, 4], got [1, 2, 3]");
    }

    @Test
    void valuesortSortsEveryValueOnItsOwn() throws IOException {
        FileResult result = run(TABLE + """
                query TI valuesort
                SELECT b, a FROM t WHERE a < 3
                ----
                1
                2
                a
                b
                """);

        assertThat(result.failures()).isEmpty();
    }

    @Test
    void conditionsAreReadWithOurEngineAsSqlite() throws IOException {
        FileResult result = run(TABLE + """
                skipif sqlite
                query I nosort
                SELECT 'wrong'
                ----
                1

                onlyif mysql
                query I nosort
                SELECT 'wrong'
                ----
                1

                onlyif sqlite
                skipif mysql
                query I nosort
                SELECT count(*) FROM t
                ----
                3
                """);

        assertThat(result.summary()).isEqualTo("f.test: 3 run, 3 passed, 0 failed, 2 skipped");
    }

    @Test
    void resultsOverTheHashThresholdCompareByCountAndMd5() throws IOException {
        FileResult result = run("hash-threshold 2\n\n" + TABLE + """
                query I nosort
                SELECT a FROM t ORDER BY a
                ----
                3 values hashing to c0710d6b4f15dfa88f600b0e6b624077

                query I nosort
                SELECT a FROM t ORDER BY a
                ----
                1
                2
                3
                """);

        assertThat(result.passed()).isEqualTo(3);
        assertThat(result.failures()).singleElement().asString()
                .contains("got 3 values hashing to c0710d6b4f15dfa88f600b0e6b624077");
    }

    @Test
    void queriesWithTheSameLabelMustAgree() throws IOException {
        FileResult result = run(TABLE + """
                query I rowsort label-1
                SELECT a FROM t
                ----
                3 values hashing to c0710d6b4f15dfa88f600b0e6b624077

                query I rowsort label-1
                SELECT a + 0 FROM t
                ----
                3 values hashing to c0710d6b4f15dfa88f600b0e6b624077

                query I rowsort label-1
                SELECT 1
                ----
                1
                """);

        assertThat(result.failures()).singleElement().asString()
                .contains("label label-1: the result differs from that of line 7");
    }

    @Test
    void aStatementRecordRunsEachOfItsStatements() throws IOException {
        FileResult result = run(TABLE + """
                statement ok
                INSERT INTO t VALUES(4, 'd');
                DELETE FROM t WHERE a = 1;

                query I nosort
                SELECT sum(a) FROM t
                ----
                9
                """);

        assertThat(result.failures()).isEmpty();
    }

    @Test
    void aQueryFailingWhileComputingRowsYieldsNoValues() throws IOException {
        FileResult result = run("""
                query I nosort
                SELECT abs(-9223372036854775807 - 1)
                ----

                query I nosort
                SELECT no_such_column
                ----
                """);

        assertThat(result.passed()).isEqualTo(1);
        assertThat(result.failures()).singleElement().asString().contains("query failed: no such column");
    }

    @Test
    void haltEndsTheFileUnlessItsConditionExcludesUs() throws IOException {
        FileResult result = run("""
                onlyif mssql
                halt

                statement ok
                SELECT 1

                halt

                statement ok
                SELECT 2
                """);

        assertThat(result.summary()).isEqualTo("f.test: 1 run, 1 passed, 0 failed, 0 skipped");
    }

    @Test
    void triggerStatementsAndWritesTheyWouldSeeAreSkipped() throws IOException {
        FileResult result = run(TABLE + """
                statement ok
                CREATE TRIGGER r AFTER INSERT ON t BEGIN SELECT 1; END

                statement ok
                INSERT INTO t VALUES(9, 'z')

                statement ok
                REINDEX t
                """);

        assertThat(result.summary()).isEqualTo("f.test: 2 run, 2 passed, 0 failed, 3 skipped");
    }

    @Test
    void aRecordOverTheTimeLimitFailsAndSoDoTheRecordsAfterIt() throws IOException {
        SltRunner impatient = new SltRunner(Duration.ofMillis(50), HostName.MEMORY);
        Path file = write("""
                query I nosort
                SELECT count(*) FROM generate_series(1, 3000000)
                ----
                3000000

                statement ok
                SELECT 1
                """);

        FileResult result = impatient.run(file, "f.test");

        assertThat(result.summary()).isEqualTo("f.test: 2 run, 0 passed, 2 failed, 0 skipped");
        assertThat(result.failures().get(0)).contains("ran over the time limit");
    }

    private FileResult run(String text) throws IOException {
        return runner.run(write(text), "f.test");
    }

    private Path write(String text) throws IOException {
        return Files.writeString(dir.resolve("f.test"), text);
    }
}
