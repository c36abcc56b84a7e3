package io.derive.cli;

import io.derive.engine.api.DeriveException;

/**
 * Why a statement of a script failed and where, in the script's own lines and columns.
 *
 * @param message the engine's message without its {@code at line:column} suffix, which counts
 *                from the start of the statement rather than of the script
 * @param code    the engine's SQLSTATE-like code
 * @param line    1-based line in the script
 * @param column  1-based column in that line
 */
record StatementFailure(String message, String code, int line, int column) {

    /** The failure of {@code statement} with an error the engine reported at a position of its text. */
    static StatementFailure inStatement(ScriptStatement statement, DeriveException error) {
        int offset = statement.offset();
        if (error.line() > 0) {
            offset += Script.offsetIn(statement.text(), error.line(), error.column());
        }
        return at(statement.script(), offset, error);
    }

    /** The failure of a statement whose error the splitter found at {@code offset} of the script. */
    static StatementFailure lexical(ScriptStatement statement) {
        return at(statement.script(), statement.errorOffset(), statement.lexicalError());
    }

    private static StatementFailure at(Script script, int offset, DeriveException error) {
        return new StatementFailure(reason(error), error.code(), script.lineOf(offset), script.columnOf(offset));
    }

    private static String reason(DeriveException error) {
        String message = error.getMessage();
        String suffix = " at " + error.line() + ":" + error.column();
        if (error.line() > 0 && message.endsWith(suffix)) {
            return message.substring(0, message.length() - suffix.length());
        }
        return message;
    }
}
