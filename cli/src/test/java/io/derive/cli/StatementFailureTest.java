package io.derive.cli;

import io.derive.engine.api.DeriveException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class StatementFailureTest {

    private final ScriptStatement statement = Script.of("s", """
            select 1;
              select a,
                     b from t;
            """).statements().get(1);

    @Test
    void errorOnTheStatementsFirstLineShiftsByWhereTheStatementStarts() {
        StatementFailure failure = StatementFailure.inStatement(statement,
                new DeriveException(DeriveException.UNDEFINED_OBJECT, "no such column: a", 1, 8));

        assertThat(failure).isEqualTo(new StatementFailure("no such column: a", "42704", 2, 10));
    }

    @Test
    void errorOnALaterLineKeepsItsColumn() {
        StatementFailure failure = StatementFailure.inStatement(statement,
                new DeriveException(DeriveException.UNDEFINED_OBJECT, "no such column: b", 2, 8));

        assertThat(failure).isEqualTo(new StatementFailure("no such column: b", "42704", 3, 8));
    }

    @Test
    void errorWithoutPositionPointsAtTheStatementStart() {
        StatementFailure failure = StatementFailure.inStatement(statement,
                new DeriveException(DeriveException.LOCK_TIMEOUT, "timed out waiting for the write lock"));

        assertThat(failure).isEqualTo(new StatementFailure("timed out waiting for the write lock", "40001", 2, 3));
    }

    @Test
    void onlyThePositionSuffixIsStrippedFromTheMessage() {
        StatementFailure failure = StatementFailure.inStatement(statement,
                new DeriveException(DeriveException.SYNTAX, "syntax error: expected ')' at end of input", 1, 3));

        assertThat(failure.message()).isEqualTo("syntax error: expected ')' at end of input");
    }
}
