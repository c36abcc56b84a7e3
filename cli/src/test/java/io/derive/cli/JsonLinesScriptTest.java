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

/** Scripts run with {@code --format jsonl}: the line-per-statement contract tools rely on. */
class JsonLinesScriptTest {

    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @Test
    void oneLinePerStatementInOrderAndAFailureInTheMiddleDoesNotStopTheScript() throws IOException {
        int exit = run("""
                create table t (id integer primary key, x text);
                insert into t values (1, 'a'), (2, null);
                insert into t values (1, 'duplicate');
                update t set x = 'b' where id = 2;
                select id, x from t order by id;
                """);

        assertThat(exit).isEqualTo(DeriveShell.RAN);
        assertThat(out.toString()).isEqualToNormalizingNewlines("""
                {"ok":true,"changes":0}
                {"ok":true,"changes":2}
                {"ok":false,"error":"UNIQUE constraint failed: t.id","code":"23000","line":3,"column":1}
                {"ok":true,"changes":1}
                {"ok":true,"columns":["id","x"],"rows":[[1,"a"],[2,"b"]]}
                """);
        assertThat(err.toString()).isEmpty();
    }

    @Test
    void failurePointsAtTheOffendingTokenInTheFile() throws IOException {
        run("""
                create table t (id integer primary key);
                -- three lines
                -- of comments
                -- before

                select id
                  from t where nope = 1;
                """);

        assertThat(out.toString()).endsWith(
                "{\"ok\":false,\"error\":\"no such column: nope\",\"code\":\"42704\",\"line\":7,\"column\":16}\n");
    }

    @Test
    void columnCountsCharactersNotUtf16Units() throws IOException {
        run("select '\uD83D\uDE00' as e, nope;\n");

        assertThat(out.toString()).contains("\"line\":1,\"column\":18}");
    }

    @Test
    void syntaxErrorIsOneLineAndExecutionResumesAfterTheNextSemicolon() throws IOException {
        run("""
                select 1 as a
                select 2 as b;
                select 3 as c;
                """);

        assertThat(out.toString()).isEqualToNormalizingNewlines("""
                {"ok":false,"error":"syntax error: expected ';' but found 'select'","code":"42601","line":2,"column":1}
                {"ok":true,"columns":["c"],"rows":[[3]]}
                """);
    }

    @Test
    void unterminatedStringIsOneFailureAtItsOpeningQuote() throws IOException {
        run("""
                select 1 as a;
                select 'no end;
                select 3 as c;
                """);

        assertThat(out.toString()).isEqualToNormalizingNewlines("""
                {"ok":true,"columns":["a"],"rows":[[1]]}
                {"ok":false,"error":"unterminated string","code":"42601","line":2,"column":8}
                """);
    }

    @Test
    void finalStatementWithoutSemicolonAndCommentOnlyPiecesCountAsWritten() throws IOException {
        run("""
                -- nothing here;
                ; /* nor here; */ ;
                select 1 as a""");

        assertThat(out.toString()).isEqualToNormalizingNewlines("""
                {"ok":true,"columns":["a"],"rows":[[1]]}
                """);
    }

    @Test
    void valuesOfTypedColumnsKeepTheirTypes() throws IOException {
        run("""
                create table v (k integer primary key, r real, n numeric, t text, b boolean, x blob);
                insert into v values (1, 1.5, 12.25, 'say "hi"', true, x'0AFF'),
                                     (2, 1e308 * 10, 0.5, null, false, null),
                                     (3, -1e308 * 10, -3, '', null, x'');
                select * from v order by k;
                """);

        assertThat(out.toString().lines().reduce((a, b) -> b).orElseThrow()).isEqualTo(
                "{\"ok\":true,\"columns\":[\"k\",\"r\",\"n\",\"t\",\"b\",\"x\"],\"rows\":["
                        + "[1,1.5,12.25,\"say \\\"hi\\\"\",true,\"0aff\"],"
                        + "[2,\"Infinity\",0.5,null,false,null],"
                        + "[3,\"-Infinity\",-3,\"\",null,\"\"]]}");
    }

    @Test
    void dateTimeAndTimestampColumnsAreIso8601Text() throws IOException {
        run("""
                create table d (k integer primary key, d date, t time, ts timestamp);
                insert into d values (1, '2024-01-02', '03:04:05', '2024-01-02 03:04:05.5');
                select d, t, ts from d;
                """);

        assertThat(out.toString()).endsWith(
                "{\"ok\":true,\"columns\":[\"d\",\"t\",\"ts\"],\"rows\":[[\"2024-01-02\",\"03:04:05\",\"2024-01-02T03:04:05.5\"]]}\n");
    }

    @Test
    void openTransactionWarningGoesToTheErrorStreamNotTheJsonLines() throws IOException {
        run("""
                begin;
                create table t (id integer primary key);
                """);

        assertThat(out.toString()).isEqualToNormalizingNewlines("{\"ok\":true,\"changes\":0}\n{\"ok\":true,\"changes\":0}\n");
        assertThat(err.toString()).contains("warning: a transaction was still open");
    }

    @Test
    void interactiveInputFromAPipeAlsoWritesOnlyJsonLines() {
        int exit = DeriveShell.run(new String[]{"--format", "jsonl"},
                new StringReader("select 1 as a;\nselect nope;\n"), new PrintWriter(out, true), new PrintWriter(err, true));

        assertThat(exit).isEqualTo(DeriveShell.RAN);
        assertThat(out.toString()).isEqualToNormalizingNewlines("""
                {"ok":true,"columns":["a"],"rows":[[1]]}
                {"ok":false,"error":"no such column: nope","code":"42704","line":1,"column":8}
                """);
    }

    private int run(String script) throws IOException {
        Path file = Files.writeString(dir.resolve("script.sql"), script);
        return DeriveShell.run(new String[]{"--format", "jsonl", "--run", file.toString()}, new StringReader(""),
                new PrintWriter(out, true), new PrintWriter(err, true));
    }
}
