package io.derive.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class DeriveShellTest {

    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @Test
    void scriptPrintsQueryTablesAndWriteCounts() throws IOException {
        Path script = write("""
                create table t (id integer primary key, name text, score real);
                insert into t values (1, 'alpha', 1.5), (2, 'beta', null);
                update t set score = 2.0 where id = 2;
                select * from t order by id;
                delete from t where id = 1;
                """);

        int exit = shell(null, "--run", script.toString());

        assertThat(exit).isZero();
        assertThat(out.toString()).isEqualToNormalizingNewlines("""
                2 rows inserted
                1 row updated
                id | name  | score
                ---+-------+------
                 1 | alpha |   1.5
                 2 | beta  |   2.0
                (2 rows)
                1 row deleted
                """);
        assertThat(err.toString()).isEmpty();
    }

    @Test
    void scriptShowsMaterializedViewContents() throws IOException {
        Path script = write("""
                create table src (id integer primary key, a text, b integer);
                create materialized view v as select id, a from src where b > 0;
                insert into src values (1, 'kept', 1), (2, 'filtered', 0);
                select * from v;
                """);

        shell(null, "--run", script.toString());

        assertThat(out.toString()).isEqualToNormalizingNewlines("""
                2 rows inserted
                id | a
                ---+-----
                 1 | kept
                (1 row)
                """);
    }

    @Test
    void scriptErrorReportsFileLineAndColumnAndExitsWithOne() throws IOException {
        Path script = write("""
                create table t (id integer primary key);
                insert into t values (1);

                select id,
                       missing from t;
                insert into t values (2);
                """);

        int exit = shell(null, "--run", script.toString());

        assertThat(exit).isEqualTo(DeriveShell.FAILED);
        assertThat(err.toString()).isEqualToNormalizingNewlines(script + ":5:8: no such column: missing\n");
        assertThat(out.toString()).isEqualToNormalizingNewlines("1 row inserted\n");
    }

    @Test
    void scriptErrorOnAStatementsFirstLineCountsTheColumnFromTheLineStart() throws IOException {
        Path script = write("""
                create table t (id integer primary key); select nope from t;
                """);

        shell(null, "--run", script.toString());

        assertThat(err.toString()).startsWith(script + ":1:49: ");
    }

    @Test
    void scriptSyntaxErrorRunsNothingAndReportsItsPosition() throws IOException {
        Path script = write("""
                create table t (id integer primary key);
                insert into t values (1)
                select * from t;
                """);

        int exit = shell(null, "--run", script.toString());

        assertThat(exit).isEqualTo(DeriveShell.FAILED);
        assertThat(err.toString()).startsWith(script + ":3:1: ");
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void missingScriptFileIsReportedAndExitsWithOne() {
        Path script = dir.resolve("absent.sql");

        int exit = shell(null, "--run", script.toString());

        assertThat(exit).isEqualTo(DeriveShell.FAILED);
        assertThat(err.toString()).startsWith(script + ": cannot read: ");
    }

    @Test
    void interactiveStatementMaySpanLines() {
        shell("""
                create table t
                  (id integer primary key);
                insert into t
                  values (1),
                         (2);
                """);

        assertThat(out.toString()).isEqualToNormalizingNewlines(
                "derive>    ...> derive>    ...>    ...> 2 rows inserted\nderive> \n");
    }

    @Test
    void interactiveLoopContinuesAfterAnError() {
        shell("""
                select * from missing;
                create table t (id integer primary key);
                insert into t values (7);
                select id from t;
                """);

        assertThat(err.toString()).isEqualToNormalizingNewlines("error: no such table: missing at 1:15\n");
        assertThat(out.toString()).contains("1 row inserted", """
                id
                --
                 7
                (1 row)
                """);
    }

    @Test
    void interactiveQuitEndsTheLoop() {
        int exit = shell("""
                create table t (id integer primary key);
                .quit
                insert into t values (1);
                """);

        assertThat(exit).isZero();
        assertThat(out.toString()).isEqualTo("derive> derive> ");
    }

    @Test
    void interactiveInputEndingWithoutSemicolonStillRuns() {
        shell("""
                create table t (id integer primary key);
                insert into t values (1)""");

        assertThat(out.toString()).contains("1 row inserted");
    }

    @Test
    void unknownOptionIsAUsageError() {
        int exit = shell(null, "--nope");

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString()).contains("Unknown option: '--nope'");
    }

    private int shell(String input, String... args) {
        return DeriveShell.run(args, new StringReader(input == null ? "" : input),
                new PrintWriter(out, true), new PrintWriter(err, true));
    }

    private Path write(String sql) throws IOException {
        return Files.writeString(dir.resolve("script.sql"), sql);
    }
}
