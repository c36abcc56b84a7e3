package io.derive.cli.slt;

import io.derive.cli.DeriveShell;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code derive slt FILE…}: per-file and total counts, failures, exit status. */
class SltCommandTest {
    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @Test
    void printsCountsPerFileAndInTotal() throws IOException {
        Path good = write("good.test",
                "statement ok\nCREATE TABLE t(a INTEGER)\n\nquery I nosort\nSELECT count(*) FROM t\n----\n0\n");
        Path skipping = write("skipping.test", "skipif sqlite\nstatement ok\nSELECT 1\n");

        int exit = slt(good.toString(), skipping.toString());

        assertThat(exit).isEqualTo(SltCommand.PASSED);
        assertThat(out.toString()).isEqualToNormalizingNewlines(good + ": 2 run, 2 passed, 0 failed, 0 skipped\n"
                + skipping + ": 0 run, 0 passed, 0 failed, 1 skipped\n"
                + "total: 2 run, 2 passed, 0 failed, 1 skipped\n");
    }

    @Test
    void printsEachFailureAndExitsWithFailed() throws IOException {
        Path bad = write("bad.test", "query I nosort\nSELECT 1\n----\n2\n");

        int exit = slt(bad.toString());

        assertThat(exit).isEqualTo(SltCommand.FAILED);
        assertThat(out.toString()).startsWith(bad + ":1: expected [2], got [1]\n    SELECT 1\n");
        assertThat(out.toString()).endsWith("total: 1 run, 0 passed, 1 failed, 0 skipped\n");
    }

    @Test
    void aFileNotInTheFormatIsReported() throws IOException {
        Path odd = write("odd.test", "select 1\n");

        int exit = slt(odd.toString());

        assertThat(exit).isEqualTo(SltCommand.UNREADABLE);
        assertThat(err.toString()).contains(odd + ":1: unknown record 'select'");
    }

    @Test
    void hostDerbyKeepsTheTablesOnTheDerbyHost() throws IOException {
        Path hosted = write("hosted.test", """
                statement ok
                CREATE TABLE t(a INTEGER PRIMARY KEY)

                statement ok
                CREATE MATERIALIZED VIEW v AS SELECT a FROM t

                query T nosort
                SELECT host FROM materialized_views()
                ----
                derby
                """);

        assertThat(slt("--host", "derby", hosted.toString())).as(out.toString()).isEqualTo(SltCommand.PASSED);
        assertThat(slt(hosted.toString())).isEqualTo(SltCommand.FAILED);
    }

    @Test
    void anUnknownHostIsABadOption() throws IOException {
        Path good = write("good.test", "statement ok\nSELECT 1\n");

        int exit = slt("--host", "oracle", good.toString());

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString()).contains("unknown host 'oracle' (expected memory or derby)");
    }

    private int slt(String... arguments) {
        String[] args = new String[arguments.length + 1];
        args[0] = "slt";
        System.arraycopy(arguments, 0, args, 1, arguments.length);
        return DeriveShell.run(args, new StringReader(""), new PrintWriter(out), new PrintWriter(err));
    }

    private Path write(String name, String text) throws IOException {
        return Files.writeString(dir.resolve(name), text);
    }
}
