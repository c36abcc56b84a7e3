package io.derive.cli;

import io.derive.engine.api.DeriveException;
import io.derive.engine.sql.Lexer;
import io.derive.engine.sql.Token;
import io.derive.engine.sql.TokenKind;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a script into statements at its top-level semicolons, using the engine's own
 * {@link Lexer} so that a semicolon inside a string, a quoted name or a comment never splits: the
 * shell and the engine cannot disagree on where a token ends.
 *
 * <p>A lexical error (an unterminated string, an unrecognized character) makes the lexer give up
 * on the whole text, so the splitter lexes again after the bad token and keeps the error as part
 * of the statement it occurs in. That statement then fails with the error while the statements
 * after the next top-level semicolon still run. An unterminated string, quoted name or comment
 * extends to the end of the script, as the lexer reads it.
 */
final class ScriptSplitter {

    /** A lexeme of the script: a token, or a stretch the lexer refused. Offsets are in the script. */
    private record Lexeme(int start, int end, boolean semicolon, DeriveException error) {
    }

    /** The statements, and whether the text ended after a top-level semicolon. */
    record Split(List<ScriptStatement> statements, boolean complete) {
    }

    private ScriptSplitter() {
    }

    static Split split(Script script) {
        List<Lexeme> lexemes = lex(script.text());
        List<ScriptStatement> statements = new ArrayList<>();
        int first = -1;
        for (int i = 0; i < lexemes.size(); i++) {
            if (lexemes.get(i).semicolon()) {
                if (first >= 0) {
                    statements.add(statement(script, lexemes.subList(first, i)));
                }
                first = -1;
            } else if (first < 0) {
                first = i;
            }
        }
        if (first >= 0) {
            statements.add(statement(script, lexemes.subList(first, lexemes.size())));
        }
        return new Split(List.copyOf(statements), first < 0);
    }

    private static ScriptStatement statement(Script script, List<Lexeme> lexemes) {
        int start = lexemes.get(0).start();
        int end = lexemes.get(lexemes.size() - 1).end();
        for (Lexeme lexeme : lexemes) {
            if (lexeme.error() != null) {
                return new ScriptStatement(script, start, end - start, lexeme.error(), lexeme.start());
            }
        }
        return new ScriptStatement(script, start, end - start, null, 0);
    }

    private static List<Lexeme> lex(String text) {
        List<Lexeme> lexemes = new ArrayList<>();
        int from = 0;
        while (from < text.length()) {
            String rest = text.substring(from);
            try {
                addTokens(lexemes, Lexer.tokenize(rest), from);
                return lexemes;
            } catch (DeriveException e) {
                int at = from + Script.offsetIn(rest, e.line(), e.column());
                // Everything before the refused token lexes: the lexer reports a token where it starts.
                addTokens(lexemes, Lexer.tokenize(text.substring(from, at)), from);
                int end = endOfRefusedToken(text, at);
                lexemes.add(new Lexeme(at, end, false, e));
                from = end;
            }
        }
        return lexemes;
    }

    private static void addTokens(List<Lexeme> lexemes, List<Token> tokens, int base) {
        for (Token token : tokens) {
            if (token.kind() != TokenKind.EOF) {
                int start = base + token.span().offset();
                lexemes.add(new Lexeme(start, start + token.span().length(), token.isOperator(";"), null));
            }
        }
    }

    /**
     * Where a token the lexer refused ends: after the closing delimiter of a string, blob, quoted
     * name or comment (the end of the text when there is none, which is why the lexer refused
     * it), else after the one character it stopped at.
     */
    private static int endOfRefusedToken(String text, int at) {
        char c = text.charAt(at);
        if ((c == 'x' || c == 'X') && text.startsWith("'", at + 1)) {
            return afterQuoted(text, at + 1, '\'');
        }
        if (c == '\'' || c == '"' || c == '`') {
            return afterQuoted(text, at, c);
        }
        if (c == '[') {
            int close = text.indexOf(']', at + 1);
            return close < 0 ? text.length() : close + 1;
        }
        if (text.startsWith("/*", at)) {
            int close = text.indexOf("*/", at + 2);
            return close < 0 ? text.length() : close + 2;
        }
        return at + 1;
    }

    /** After the closing quote of a quoted token opening at {@code open}; a doubled quote is not one. */
    private static int afterQuoted(String text, int open, char quote) {
        int pos = open + 1;
        while (pos < text.length()) {
            if (text.charAt(pos) == quote) {
                if (pos + 1 < text.length() && text.charAt(pos + 1) == quote) {
                    pos += 2;
                    continue;
                }
                return pos + 1;
            }
            pos++;
        }
        return text.length();
    }
}
