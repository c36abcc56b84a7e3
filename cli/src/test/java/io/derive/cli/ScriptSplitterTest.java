package io.derive.cli;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ScriptSplitterTest {

    @Test
    void splitsAtTopLevelSemicolons() {
        assertThat(texts("""
                create table t (id integer primary key);
                insert into t values (1); select * from t;
                """)).containsExactly(
                "create table t (id integer primary key)", "insert into t values (1)", "select * from t");
    }

    @Test
    void semicolonInsideAStringDoesNotSplit() {
        assertThat(texts("select 'a;b', 'it''s;'; select 2;")).containsExactly("select 'a;b', 'it''s;'", "select 2");
    }

    @Test
    void semicolonInsideQuotedNamesDoesNotSplit() {
        assertThat(texts("""
                select 1 as "a;b", 2 as `c;d`, 3 as [e;f]; select 4
                """)).containsExactly("select 1 as \"a;b\", 2 as `c;d`, 3 as [e;f]", "select 4");
    }

    @Test
    void semicolonInsideCommentsDoesNotSplit() {
        assertThat(texts("""
                select 1 -- not here;
                  + 2 /* nor; here */ + 3;
                select 4;
                """)).containsExactly("select 1 -- not here;\n  + 2 /* nor; here */ + 3", "select 4");
    }

    @Test
    void finalStatementWithoutSemicolonCounts() {
        assertThat(texts("select 1;\nselect 2\n")).containsExactly("select 1", "select 2");
    }

    @Test
    void piecesHoldingOnlyCommentsOrBlanksAreNotStatements() {
        assertThat(texts("""
                ;
                -- a note;
                ;  ;
                /* a block; */ ;
                select 1;
                -- trailing note
                """)).containsExactly("select 1");
    }

    @Test
    void statementPositionIsItsFirstTokenAfterLeadingComments() {
        ScriptStatement statement = Script.of("s", "select 1;\n\n  -- why\n  /* how */ select 2;").statements().get(1);

        assertThat(statement.line()).isEqualTo(4);
        assertThat(statement.column()).isEqualTo(13);
        assertThat(statement.text()).isEqualTo("select 2");
    }

    @Test
    void unrecognizedCharacterFailsOnlyTheStatementItIsIn() {
        List<ScriptStatement> statements = Script.of("s", "select 1;\nselect # from t; select 3;").statements();

        assertThat(statements).extracting(ScriptStatement::text)
                .containsExactly("select 1", "select # from t", "select 3");
        assertThat(statements.get(0).lexicalError()).isNull();
        StatementFailure failure = StatementFailure.lexical(statements.get(1));
        assertThat(failure.message()).isEqualTo("unrecognized character '#'");
        assertThat(failure.line()).isEqualTo(2);
        assertThat(failure.column()).isEqualTo(8);
        assertThat(statements.get(2).lexicalError()).isNull();
    }

    @Test
    void malformedBlobEndsAtItsClosingQuoteSoASemicolonInsideItDoesNotSplit() {
        List<ScriptStatement> statements = Script.of("s", "select x'abc;'; select 2").statements();

        assertThat(statements).extracting(ScriptStatement::text).containsExactly("select x'abc;'", "select 2");
        assertThat(statements.get(0).lexicalError()).hasMessageStartingWith("malformed blob literal");
    }

    @Test
    void unterminatedStringRunsToTheEndOfTheScript() {
        Script script = Script.of("s", "select 1;\nselect 'open;\nselect 3;\n");

        assertThat(script.statements()).hasSize(2);
        assertThat(StatementFailure.lexical(script.statements().get(1)))
                .isEqualTo(new StatementFailure("unterminated string", "42601", 2, 8));
        assertThat(script.complete()).isFalse();
    }

    @Test
    void textEndingAfterASemicolonIsComplete() {
        assertThat(Script.of("s", "select 1;\n").complete()).isTrue();
        assertThat(Script.of("s", "select 1; -- done\n").complete()).isTrue();
        assertThat(Script.of("s", "-- only a note\n").complete()).isTrue();
    }

    @Test
    void textWithAnOpenStatementOrCommentIsIncomplete() {
        assertThat(Script.of("s", "select 1; select\n").complete()).isFalse();
        assertThat(Script.of("s", "select 1; /* still;\n").complete()).isFalse();
        assertThat(Script.of("s", "select 'a;\n").complete()).isFalse();
    }

    private static List<String> texts(String script) {
        return Script.of("s", script).statements().stream().map(ScriptStatement::text).toList();
    }
}
