package io.derive.cli;

import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringReader;
import java.io.StringWriter;

import static org.assertj.core.api.Assertions.assertThat;

/** The interactive session, fed as from a pipe: no prompts, errors shown with a caret. */
class InteractiveLoopTest {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @Test
    void statementMaySpanLines() {
        session("""
                create table t
                  (id integer primary key);
                insert into t
                  values (1),
                         (2);
                """);

        assertThat(out.toString()).isEqualToNormalizingNewlines("2 rows inserted\n");
    }

    @Test
    void stringMaySpanLinesAndItsSemicolonDoesNotEndTheStatement() {
        session("""
                select 'one;
                two' as s;
                """);

        assertThat(out.toString()).contains("one;\ntwo");
        assertThat(err.toString()).isEmpty();
    }

    @Test
    void errorShowsTheStatementAsTypedWithACaretUnderTheOffendingToken() {
        session("""
                create table t (id integer primary key);
                select id,
                       missing from t;
                """);

        assertThat(err.toString()).isEqualToNormalizingNewlines("""
                error: no such column: missing
                  select id,
                         missing from t;
                         ^
                """);
    }

    @Test
    void caretKeepsTabsSoItLinesUp() {
        session("\tselect\tnope;\n");

        assertThat(err.toString()).isEqualToNormalizingNewlines("""
                error: no such column: nope
                  \tselect\tnope;
                  \t      \t^
                """);
    }

    @Test
    void caretCountsCharactersNotUtf16Units() {
        session("select '\uD83D\uDE00', nope;\n");

        assertThat(err.toString()).endsWith("\n" + "  " + " ".repeat(12) + "^\n");
    }

    @Test
    void loopContinuesAfterAnError() {
        session("""
                select * from missing;
                create table t (id integer primary key);
                insert into t values (7);
                select id from t;
                """);

        assertThat(err.toString()).startsWith("error: no such table: missing\n");
        assertThat(out.toString()).contains("1 row inserted", """
                id
                --
                 7
                (1 row)
                """);
    }

    @Test
    void quitEndsTheLoop() {
        int exit = session("""
                create table t (id integer primary key);
                .quit
                insert into t values (1);
                """);

        assertThat(exit).isEqualTo(DeriveShell.RAN);
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void inputEndingWithoutSemicolonStillRuns() {
        session("""
                create table t (id integer primary key);
                insert into t values (1)""");

        assertThat(out.toString()).contains("1 row inserted");
    }

    @Test
    void transactionOpenAtTheEndOfInputIsRolledBackWithAWarning() {
        session("""
                create table t (id integer primary key);
                begin;
                insert into t values (1);
                """);

        assertThat(err.toString()).isEqualToNormalizingNewlines(
                "warning: a transaction was still open at the end of the session; it was rolled back\n");
    }

    private int session(String input) {
        return DeriveShell.run(new String[0], new StringReader(input), new PrintWriter(out, true), new PrintWriter(err, true));
    }
}
