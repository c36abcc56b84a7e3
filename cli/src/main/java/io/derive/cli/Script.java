package io.derive.cli;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The text of a script with its name for messages, split into {@linkplain ScriptStatement
 * statements} by {@link ScriptSplitter}, and the map between character offsets and the 1-based
 * line and column that messages show. Lines end at {@code \n}, as the engine's lexer counts them.
 * Columns count characters (code points) from the line's start, as a reader of the message
 * counts them; the engine's own columns count UTF-16 units, so they are read through
 * {@link #offsetIn}.
 */
final class Script {
    private final String name;
    private final String text;
    private final int[] lineStarts;
    private final List<ScriptStatement> statements;
    private final boolean complete;

    private Script(String name, String text) {
        this.name = name;
        this.text = text;
        this.lineStarts = lineStarts(text);
        ScriptSplitter.Split split = ScriptSplitter.split(this);
        this.statements = split.statements();
        this.complete = split.complete();
    }

    /** Splits {@code text}; {@code name} is what messages call it (a file name, {@code -e}). */
    static Script of(String name, String text) {
        return new Script(name, text);
    }

    String name() {
        return name;
    }

    String text() {
        return text;
    }

    /** The statements in order; pieces holding only blanks and comments are not among them. */
    List<ScriptStatement> statements() {
        return statements;
    }

    /**
     * True when the text ends after a top-level semicolon (or holds no statement), so an
     * interactive reader need not wait for more lines; false while a statement, a string, a
     * quoted name or a comment is still open.
     */
    boolean complete() {
        return complete;
    }

    /** 1-based line of a character offset. */
    int lineOf(int offset) {
        int index = Arrays.binarySearch(lineStarts, offset);
        return index >= 0 ? index + 1 : -index - 1;
    }

    /** 1-based column, in code points, of a character offset. */
    int columnOf(int offset) {
        return text.codePointCount(lineStarts[lineOf(offset) - 1], offset) + 1;
    }

    /** The text of a 1-based line, without its line end. */
    String lineText(int line) {
        int start = lineStarts[line - 1];
        int end = line < lineStarts.length ? lineStarts[line] - 1 : text.length();
        return text.substring(start, end);
    }

    /**
     * The offset in {@code within} of a 1-based line and column as the engine reports them
     * (columns in UTF-16 units), clamped to the text.
     */
    static int offsetIn(String within, int line, int column) {
        int offset = 0;
        for (int l = 1; l < line; l++) {
            int newline = within.indexOf('\n', offset);
            if (newline < 0) {
                return within.length();
            }
            offset = newline + 1;
        }
        return Math.min(within.length(), offset + Math.max(0, column - 1));
    }

    private static int[] lineStarts(String text) {
        List<Integer> starts = new ArrayList<>();
        starts.add(0);
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) == '\n') {
                starts.add(i + 1);
            }
        }
        return starts.stream().mapToInt(Integer::intValue).toArray();
    }
}
