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

/** The shell's script mode, options and exit statuses, in table format. */
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

        int exit = shell("--run", script.toString());

        assertThat(exit).isEqualTo(DeriveShell.RAN);
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
    void writesThroughAMaterializedViewAreCountedAsTheStatementsTheyAre() throws IOException {
        Path script = write("""
                create table src (id integer primary key, a text, b integer);
                create materialized view v as select id, a from src where b = 1;
                insert into v values (1, 'x'), (2, 'y');
                update v set a = 'z' where id = 2;
                delete from v where id = 1;
                update v set a = 'none' where id = 9;
                """);

        shell("--run", script.toString());

        assertThat(err.toString()).isEmpty();
        assertThat(out.toString()).isEqualToNormalizingNewlines("""
                2 rows inserted
                1 row updated
                1 row deleted
                0 rows updated
                """);
    }

    @Test
    void upsertsCountEveryRowTheyWroteAsInserted() throws IOException {
        Path script = write("""
                create table t (id integer primary key, n integer);
                insert into t values (1, 1);
                insert into t values (1, 5), (2, 2) on conflict (id) do update set n = t.n + excluded.n;
                insert into t values (1, 0), (3, 3) on conflict do nothing;
                insert or ignore into t values (1, 0);
                insert or replace into t values (2, 20);
                """);

        shell("--run", script.toString());

        assertThat(err.toString()).isEmpty();
        assertThat(out.toString()).isEqualToNormalizingNewlines("""
                1 row inserted
                2 rows inserted
                1 row inserted
                0 rows inserted
                1 row inserted
                """);
    }

    @Test
    void aWriteWithReturningShowsItsRows() throws IOException {
        Path script = write("""
                create table t (id integer primary key, v text);
                insert into t values (1, 'a'), (2, 'b') returning id;
                update t set v = 'c' where id = 2 returning v;
                delete from t returning id, v;
                """);

        shell("--run", script.toString());

        assertThat(err.toString()).isEmpty();
        assertThat(out.toString()).isEqualToNormalizingNewlines("""
                id
                --
                 1
                 2
                (2 rows)
                v
                -
                c
                (1 row)
                id | v
                ---+--
                 1 | a
                 2 | c
                (2 rows)
                """);
    }

    @Test
    void statementsThatChangeNoRowsPrintNothing() throws IOException {
        Path script = write("""
                create table t (id integer primary key);
                create index t_id on t (id);
                create materialized view m as select id from t;
                begin;
                savepoint s;
                release s;
                commit;
                refresh materialized view m;
                analyze;
                pragma foreign_keys = off;
                alter table t add column note text;
                drop materialized view m;
                """);

        shell("--run", script.toString());

        assertThat(err.toString()).isEmpty();
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void scriptShowsMaterializedViewContents() throws IOException {
        Path script = write("""
                create table src (id integer primary key, a text, b integer);
                create materialized view v as select id, a from src where b > 0;
                insert into src values (1, 'kept', 1), (2, 'filtered', 0);
                select * from v;
                """);

        shell("--run", script.toString());

        assertThat(out.toString()).isEqualToNormalizingNewlines("""
                2 rows inserted
                id | a
                ---+-----
                 1 | kept
                (1 row)
                """);
    }

    @Test
    void failingStatementIsReportedWithFileLineAndColumnAndTheScriptGoesOn() throws IOException {
        Path script = write("""
                create table t (id integer primary key);
                insert into t values (1);

                select id,
                       missing from t;
                insert into t values (2);
                """);

        int exit = shell("--run", script.toString());

        assertThat(exit).isEqualTo(DeriveShell.RAN);
        assertThat(err.toString()).isEqualToNormalizingNewlines(script + ":5:8: no such column: missing\n");
        assertThat(out.toString()).isEqualToNormalizingNewlines("1 row inserted\n1 row inserted\n");
    }

    @Test
    void errorOnLineSevenPointsAtTheOffendingToken() throws IOException {
        Path script = write("""
                -- a script whose seventh line is wrong
                create table t (id integer primary key, v text);

                insert into t
                  values (1, 'a');
                /* the next statement names a column that does not exist */
                select v from t where nope = 1;
                """);

        shell("--run", script.toString());

        assertThat(err.toString()).isEqualToNormalizingNewlines(script + ":7:23: no such column: nope\n");
    }

    @Test
    void errorOnAStatementsFirstLineCountsTheColumnFromTheLineStart() throws IOException {
        Path script = write("""
                create table t (id integer primary key); select nope from t;
                """);

        shell("--run", script.toString());

        assertThat(err.toString()).startsWith(script + ":1:49: no such column: nope");
    }

    @Test
    void syntaxErrorSkipsToTheNextSemicolonAndTheRestRuns() throws IOException {
        Path script = write("""
                create table t (id integer primary key);
                insert into t values (1)
                select * from t;
                insert into t values (2);
                select id from t order by id;
                """);

        int exit = shell("--run", script.toString());

        assertThat(exit).isEqualTo(DeriveShell.RAN);
        assertThat(err.toString()).isEqualToNormalizingNewlines(script + ":3:1: syntax error: expected ';' but found 'select'\n");
        assertThat(out.toString()).isEqualToNormalizingNewlines("""
                1 row inserted
                id
                --
                 2
                (1 row)
                """);
    }

    @Test
    void lexicalErrorFailsItsStatementAndTheNextOneRuns() throws IOException {
        Path script = write("""
                select 1 # 2 as a;
                select 3 as b;
                """);

        shell("--run", script.toString());

        assertThat(err.toString()).isEqualToNormalizingNewlines(script + ":1:10: unrecognized character '#'\n");
        assertThat(out.toString()).isEqualToNormalizingNewlines("b\n-\n3\n(1 row)\n");
    }

    @Test
    void semicolonsInStringsCommentsAndQuotedNamesDoNotEndStatements() throws IOException {
        Path script = write("""
                create table "a;b" (id integer primary key, v text);
                insert into "a;b" values (1, 'x;y'); -- a comment; with a semicolon
                /* ; */ select v as "v;" from "a;b"
                """);

        shell("--run", script.toString());

        assertThat(err.toString()).isEmpty();
        assertThat(out.toString()).isEqualToNormalizingNewlines("""
                1 row inserted
                v;
                ---
                x;y
                (1 row)
                """);
    }

    @Test
    void transactionLeftOpenIsRolledBackWithAWarning() throws IOException {
        Path script = write("""
                create table t (id integer primary key);
                begin;
                insert into t values (1);
                """);

        int exit = shell("--run", script.toString());

        assertThat(exit).isEqualTo(DeriveShell.RAN);
        assertThat(err.toString()).isEqualToNormalizingNewlines(
                "warning: a transaction was still open at the end of the script; it was rolled back\n");
    }

    @Test
    void committedTransactionGivesNoWarning() {
        shell("-e", "create table t (id integer primary key); begin; insert into t values (1); commit");

        assertThat(err.toString()).isEmpty();
    }

    @Test
    void inlineTextRunsAsAScriptNamedDashE() {
        int exit = shell("-e", "create table t (id integer primary key);\ninsert into t values (1); select nope");

        assertThat(exit).isEqualTo(DeriveShell.RAN);
        assertThat(out.toString()).isEqualToNormalizingNewlines("1 row inserted\n");
        assertThat(err.toString()).isEqualToNormalizingNewlines("-e:2:34: no such column: nope\n");
    }

    @Test
    void explicitMemoryDatabaseAndHostRunTheScript() {
        int exit = shell("--memory", "--host", "memory", "-e", "create table t (id integer primary key); select * from t");

        assertThat(exit).isEqualTo(DeriveShell.RAN);
        assertThat(err.toString()).isEmpty();
        assertThat(out.toString()).isEqualToNormalizingNewlines("id\n--\n(0 rows)\n");
    }

    @Test
    void missingScriptFileExitsWithTwo() {
        Path script = dir.resolve("absent.sql");

        int exit = shell("--run", script.toString());

        assertThat(exit).isEqualTo(DeriveShell.USAGE);
        assertThat(err.toString()).isEqualToNormalizingNewlines("derive: cannot read " + script + ": no such file\n");
    }

    @Test
    void directoryAsScriptExitsWithTwo() {
        int exit = shell("--run", dir.toString());

        assertThat(exit).isEqualTo(DeriveShell.USAGE);
        assertThat(err.toString()).startsWith("derive: cannot read " + dir + ": ");
    }

    @Test
    void scriptThatIsNotUtf8ExitsWithTwo() throws IOException {
        Path script = Files.write(dir.resolve("latin1.sql"), new byte[]{'s', 'e', 'l', (byte) 0xe9});

        int exit = shell("--run", script.toString());

        assertThat(exit).isEqualTo(DeriveShell.USAGE);
        assertThat(err.toString()).contains("it is not UTF-8 text");
    }

    @Test
    void unknownOptionExitsWithTwo() {
        int exit = shell("--nope");

        assertThat(exit).isEqualTo(DeriveShell.USAGE);
        assertThat(err.toString()).contains("Unknown option: '--nope'");
    }

    @Test
    void unknownHostExitsWithTwo() {
        int exit = shell("--host", "sqlite", "-e", "select 1");

        assertThat(exit).isEqualTo(DeriveShell.USAGE);
        assertThat(err.toString()).contains("unknown host 'sqlite' (expected memory or derby)");
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void unknownFormatExitsWithTwo() {
        int exit = shell("--format", "csv", "-e", "select 1");

        assertThat(exit).isEqualTo(DeriveShell.USAGE);
        assertThat(err.toString()).contains("unknown format 'csv' (expected table or jsonl)");
    }

    @Test
    void memoryAndDbTogetherExitWithTwo() {
        int exit = shell("--memory", "--db", dir.toString(), "-e", "select 1");

        assertThat(exit).isEqualTo(DeriveShell.USAGE);
        assertThat(err.toString()).contains("--memory and --db cannot be used together");
    }

    @Test
    void runAndInlineTextTogetherExitWithTwo() throws IOException {
        int exit = shell("--run", write("select 1;").toString(), "-e", "select 2");

        assertThat(exit).isEqualTo(DeriveShell.USAGE);
        assertThat(err.toString()).contains("--run and -e cannot be used together");
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void aDerbyDatabaseKeepsItsTablesFromOneRunToTheNext() {
        Path db = dir.resolve("shop");
        assertThat(shell("--db", db.toString(), "-e", "create table t (k integer primary key, v text); insert into t values (1, 'kept')"))
                .isZero();
        out.getBuffer().setLength(0);
        int exit = shell("--db", db.toString(), "--format", "jsonl", "-e", "select k, v from t");

        assertThat(exit).isZero();
        assertThat(out.toString()).isEqualToNormalizingNewlines("{\"ok\":true,\"columns\":[\"k\",\"v\"],\"rows\":[[1,\"kept\"]]}\n");
    }

    @Test
    void aDirectoryDerbyCannotUseExitsWithThree() throws Exception {
        Path file = java.nio.file.Files.writeString(dir.resolve("occupied"), "not a database");
        int exit = shell("--db", file.toString(), "-e", "select 1");

        assertThat(exit).isEqualTo(DeriveShell.UNAVAILABLE);
        assertThat(err.toString()).startsWith("derive: cannot open the database at " + file + ": ");
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void theDerbyHostServesAnInMemoryDatabase() {
        int exit = shell("--host", "derby", "--format", "jsonl", "-e",
                "create table t (k integer primary key); insert into t values (4); select k, (select sql from schema()) as ddl from t");

        assertThat(exit).isZero();
        assertThat(out.toString()).contains("[[4,\"create table main.t (k integer not null, primary key (k)) using derby\"]]");
    }

    private int shell(String... args) {
        return DeriveShell.run(args, new StringReader(""), new PrintWriter(out, true), new PrintWriter(err, true));
    }

    private Path write(String sql) throws IOException {
        return Files.writeString(dir.resolve("script.sql"), sql);
    }
}
