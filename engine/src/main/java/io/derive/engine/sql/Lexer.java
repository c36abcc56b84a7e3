package io.derive.engine.sql;

import io.derive.engine.api.DeriveException;
import io.derive.engine.sql.ast.SourceSpan;

import java.util.ArrayList;
import java.util.List;

/** Splits statement text into {@link Token}s, tracking line and column for every token. */
public final class Lexer {
    private static final String[] OPERATORS = {
        "||", "<<", ">>", "<=", ">=", "==", "!=", "<>",
        "(", ")", ",", ";", ".", "+", "-", "*", "/", "%", "=", "<", ">", "&", "|", "~"
    };

    private final String sql;
    private int pos;
    private int line = 1;
    private int lineStart;

    private Lexer(String sql) {
        this.sql = sql;
    }

    public static List<Token> tokenize(String sql) {
        return new Lexer(sql).run();
    }

    private List<Token> run() {
        List<Token> tokens = new ArrayList<>();
        while (true) {
            skipSpaceAndComments();
            if (pos >= sql.length()) {
                tokens.add(new Token(TokenKind.EOF, "", span(pos, 0)));
                return tokens;
            }
            tokens.add(next());
        }
    }

    private Token next() {
        int start = pos;
        int startLine = line;
        int startColumn = pos - lineStart + 1;
        char c = sql.charAt(pos);
        if ((c == 'x' || c == 'X') && pos + 1 < sql.length() && sql.charAt(pos + 1) == '\'') {
            pos++;
            String hex = quoted('\'', "blob literal", startLine, startColumn);
            if (hex.length() % 2 != 0 || !hex.matches("[0-9a-fA-F]*")) {
                throw error("malformed blob literal", startLine, startColumn);
            }
            return token(TokenKind.BLOB, hex, start, startLine, startColumn);
        }
        if (Character.isLetter(c) || c == '_') {
            while (pos < sql.length() && (Character.isLetterOrDigit(sql.charAt(pos)) || sql.charAt(pos) == '_' || sql.charAt(pos) == '$')) {
                pos++;
            }
            return token(TokenKind.WORD, sql.substring(start, pos), start, startLine, startColumn);
        }
        if (Character.isDigit(c) || (c == '.' && pos + 1 < sql.length() && Character.isDigit(sql.charAt(pos + 1)))) {
            return number(start, startLine, startColumn);
        }
        switch (c) {
            case '\'':
                return token(TokenKind.STRING, quoted('\'', "string", startLine, startColumn), start, startLine, startColumn);
            case '"':
                return token(TokenKind.QUOTED_IDENTIFIER, quoted('"', "quoted identifier", startLine, startColumn), start, startLine, startColumn);
            case '`':
                return token(TokenKind.QUOTED_IDENTIFIER, quoted('`', "quoted identifier", startLine, startColumn), start, startLine, startColumn);
            case '[':
                return token(TokenKind.QUOTED_IDENTIFIER, quoted(']', "quoted identifier", startLine, startColumn), start, startLine, startColumn);
            case '?':
                pos++;
                while (pos < sql.length() && Character.isDigit(sql.charAt(pos))) {
                    pos++;
                }
                return token(TokenKind.PARAMETER, sql.substring(start, pos), start, startLine, startColumn);
            case ':':
            case '@':
            case '$':
                pos++;
                while (pos < sql.length() && (Character.isLetterOrDigit(sql.charAt(pos)) || sql.charAt(pos) == '_')) {
                    pos++;
                }
                if (pos == start + 1) {
                    throw error("a parameter name must follow '" + c + "'", startLine, startColumn);
                }
                return token(TokenKind.PARAMETER, sql.substring(start, pos), start, startLine, startColumn);
            default:
                for (String op : OPERATORS) {
                    if (sql.startsWith(op, pos)) {
                        pos += op.length();
                        return token(TokenKind.OPERATOR, op, start, startLine, startColumn);
                    }
                }
                throw error("unrecognized character '" + c + "'", startLine, startColumn);
        }
    }

    private Token number(int start, int startLine, int startColumn) {
        boolean real = false;
        if (sql.startsWith("0x", pos) || sql.startsWith("0X", pos)) {
            pos += 2;
            while (pos < sql.length() && Character.digit(sql.charAt(pos), 16) >= 0) {
                pos++;
            }
            if (pos == start + 2 || pos - start - 2 > 16) {
                throw error(pos == start + 2 ? "malformed hex literal '" + sql.substring(start, pos) + "'"
                        : "hex literal too big: " + sql.substring(start, pos), startLine, startColumn);
            }
            return token(TokenKind.INTEGER, sql.substring(start, pos), start, startLine, startColumn);
        }
        while (pos < sql.length() && Character.isDigit(sql.charAt(pos))) {
            pos++;
        }
        if (pos < sql.length() && sql.charAt(pos) == '.') {
            real = true;
            pos++;
            while (pos < sql.length() && Character.isDigit(sql.charAt(pos))) {
                pos++;
            }
        }
        if (pos < sql.length() && (sql.charAt(pos) == 'e' || sql.charAt(pos) == 'E')) {
            int mark = pos;
            pos++;
            if (pos < sql.length() && (sql.charAt(pos) == '+' || sql.charAt(pos) == '-')) {
                pos++;
            }
            if (pos < sql.length() && Character.isDigit(sql.charAt(pos))) {
                real = true;
                while (pos < sql.length() && Character.isDigit(sql.charAt(pos))) {
                    pos++;
                }
            } else {
                pos = mark;
            }
        }
        if (pos < sql.length() && (Character.isLetter(sql.charAt(pos)) || sql.charAt(pos) == '_')) {
            throw error("malformed number near '" + sql.substring(start, pos + 1) + "'", startLine, startColumn);
        }
        return token(real ? TokenKind.REAL : TokenKind.INTEGER, sql.substring(start, pos), start, startLine, startColumn);
    }

    private String quoted(char close, String what, int startLine, int startColumn) {
        pos++;
        StringBuilder text = new StringBuilder();
        while (true) {
            if (pos >= sql.length()) {
                throw error("unterminated " + what, startLine, startColumn);
            }
            char c = sql.charAt(pos);
            if (c == close) {
                if (close != ']' && pos + 1 < sql.length() && sql.charAt(pos + 1) == close) {
                    text.append(close);
                    pos += 2;
                    continue;
                }
                pos++;
                return text.toString();
            }
            if (c == '\n') {
                line++;
                lineStart = pos + 1;
            }
            text.append(c);
            pos++;
        }
    }

    private void skipSpaceAndComments() {
        while (pos < sql.length()) {
            char c = sql.charAt(pos);
            if (c == '\n') {
                line++;
                pos++;
                lineStart = pos;
            } else if (Character.isWhitespace(c)) {
                pos++;
            } else if (sql.startsWith("--", pos)) {
                while (pos < sql.length() && sql.charAt(pos) != '\n') {
                    pos++;
                }
            } else if (sql.startsWith("/*", pos)) {
                int startLine = line;
                int startColumn = pos - lineStart + 1;
                int end = sql.indexOf("*/", pos + 2);
                if (end < 0) {
                    throw error("unterminated comment", startLine, startColumn);
                }
                for (int i = pos; i < end; i++) {
                    if (sql.charAt(i) == '\n') {
                        line++;
                        lineStart = i + 1;
                    }
                }
                pos = end + 2;
            } else {
                return;
            }
        }
    }

    private Token token(TokenKind kind, String text, int start, int startLine, int startColumn) {
        return new Token(kind, text, new SourceSpan(startLine, startColumn, start, pos - start));
    }

    private SourceSpan span(int start, int length) {
        return new SourceSpan(line, start - lineStart + 1, start, length);
    }

    private static DeriveException error(String message, int line, int column) {
        return new DeriveException(DeriveException.SYNTAX, message, line, column);
    }
}
