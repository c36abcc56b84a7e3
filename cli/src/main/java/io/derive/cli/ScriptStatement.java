package io.derive.cli;

import io.derive.engine.api.DeriveException;

/**
 * One statement of a {@link Script}: the text from its first token to its last, without the
 * semicolon that ends it.
 *
 * @param script        the script it belongs to
 * @param offset        where its first token starts in the script text
 * @param length        its length in characters
 * @param lexicalError  the first error the engine's lexer reported inside it, or null
 * @param errorOffset   where that error is in the script text (meaningless without one)
 */
record ScriptStatement(Script script, int offset, int length, DeriveException lexicalError, int errorOffset) {

    String text() {
        return script.text().substring(offset, offset + length);
    }

    int line() {
        return script.lineOf(offset);
    }

    int column() {
        return script.columnOf(offset);
    }

    /** 1-based line of the statement's last character. */
    int lastLine() {
        return script.lineOf(offset + Math.max(0, length - 1));
    }
}
