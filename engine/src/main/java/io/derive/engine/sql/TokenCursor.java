package io.derive.engine.sql;

import io.derive.engine.api.DeriveException;
import io.derive.engine.sql.ast.QualifiedName;
import io.derive.engine.sql.ast.SourceSpan;
import io.derive.engine.sql.ast.Statement;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The position in one script's tokens that all the grammar parsers of a {@link Parser} share, with
 * the small pieces of grammar every statement uses (names, key columns, directions) and the
 * syntax error that names what was expected and where.
 */
final class TokenCursor {

    /** Words that end an expression or select item, so they are never taken as an implicit alias. */
    private static final Set<String> RESERVED = Set.of(
            "select", "from", "where", "group", "having", "order", "limit", "offset", "union",
            "intersect", "except", "join", "inner", "left", "right", "full", "cross", "on", "using",
            "as", "and", "or", "not", "is", "in", "like", "glob", "between", "case", "when", "then",
            "else", "end", "null", "values", "set", "into", "collate", "asc", "desc", "nulls", "natural", "returning",
            "outer", "lateral", "exists", "with");

    /**
     * The deepest nesting accepted (SQLite allows 1000): parsing, binding and evaluating are
     * recursive, and deeper trees would exhaust a 1 MB thread stack, the JVM's default.
     */
    static final int MAX_DEPTH = 500;

    /** A nested query costs many stack frames in every phase, so it weighs as several levels. */
    static final int QUERY_WEIGHT = 5;

    private final String sql;
    private final List<Token> tokens;
    private int pos;
    private int depth;

    TokenCursor(String sql) {
        this.sql = sql;
        this.tokens = Lexer.tokenize(sql);
    }

    Token peek() {
        return tokens.get(pos);
    }

    Token peek(int ahead) {
        return tokens.get(Math.min(pos + ahead, tokens.size() - 1));
    }

    Token next() {
        Token t = tokens.get(pos);
        if (t.kind() != TokenKind.EOF) {
            pos++;
        }
        return t;
    }

    Token previous() {
        return tokens.get(Math.max(0, pos - 1));
    }

    /** The current position, to {@link #reset} to when a token read ahead turns out to be an error. */
    int mark() {
        return pos;
    }

    void reset(int mark) {
        pos = mark;
    }

    boolean acceptWord(String word) {
        if (peek().isWord(word)) {
            pos++;
            return true;
        }
        return false;
    }

    boolean acceptOperator(String op) {
        if (peek().isOperator(op)) {
            pos++;
            return true;
        }
        return false;
    }

    Token expectWord(String word) {
        if (!peek().isWord(word)) {
            throw expected("'" + word + "'");
        }
        return next();
    }

    void expectOperator(String op) {
        if (!acceptOperator(op)) {
            throw expected("'" + op + "'");
        }
    }

    void expectNumber() {
        if (peek().kind() != TokenKind.INTEGER) {
            throw expected("a number");
        }
        next();
    }

    /** Whether a query starts at the cursor (inside parentheses: a subquery rather than an expression). */
    boolean startsQuery() {
        return peek().isWord("select") || peek().isWord("with") || peek().isWord("values");
    }

    /**
     * Words that read as something other than a name in some position where a name may stand:
     * the reserved words, the literals and niladic functions of expressions, the quantifiers
     * after {@code select}, and the words that open a table constraint in a column list.
     */
    private static final Set<String> KEYWORD_LIKE = Set.of("true", "false", "current_date", "current_time",
            "current_timestamp", "cast", "distinct", "all", "constraint", "primary", "unique", "check", "foreign");

    /** Whether a name spelled as {@code word} must be quoted to read as a name everywhere. */
    static boolean readsAsKeyword(String word) {
        String lower = word.toLowerCase(Locale.ROOT);
        return RESERVED.contains(lower) || KEYWORD_LIKE.contains(lower);
    }

    static boolean isReserved(String word) {
        return RESERVED.contains(word);
    }

    static boolean isIdentifier(Token t) {
        return t.kind() == TokenKind.QUOTED_IDENTIFIER
                || (t.kind() == TokenKind.WORD && !RESERVED.contains(t.text().toLowerCase(Locale.ROOT)));
    }

    String identifier(String what) {
        Token t = peek();
        if (t.kind() == TokenKind.QUOTED_IDENTIFIER || t.kind() == TokenKind.WORD) {
            if (t.kind() == TokenKind.WORD && RESERVED.contains(t.text().toLowerCase(Locale.ROOT))) {
                throw expected(what);
            }
            return next().text();
        }
        throw expected(what);
    }

    QualifiedName qualifiedName() {
        Token first = peek();
        String name = identifier("a name");
        if (acceptOperator(".")) {
            String object = identifier("a name");
            return new QualifiedName(name, object, spanFrom(first));
        }
        return new QualifiedName(null, name, spanFrom(first));
    }

    List<String> identifierList() {
        List<String> names = new ArrayList<>();
        do {
            names.add(identifier("a column name"));
        } while (acceptOperator(","));
        return names;
    }

    /** An optional {@code (c1, c2, …)} column-name list; empty when there is none. */
    List<String> optionalColumnNames() {
        if (!acceptOperator("(")) {
            return new ArrayList<>();
        }
        List<String> names = identifierList();
        expectOperator(")");
        return names;
    }

    /** {@code (c [asc|desc], …)}. */
    List<Statement.KeyColumn> keyColumns() {
        List<Statement.KeyColumn> columns = new ArrayList<>();
        expectOperator("(");
        do {
            Token column = peek();
            String columnName = identifier("a column name");
            boolean descending = direction();
            columns.add(new Statement.KeyColumn(columnName, descending, spanFrom(column)));
        } while (acceptOperator(","));
        expectOperator(")");
        return columns;
    }

    boolean direction() {
        if (acceptWord("desc")) {
            return true;
        }
        acceptWord("asc");
        return false;
    }

    SourceSpan spanFrom(Token first) {
        return first.span().to(previous().span());
    }

    /** The statement text of a span. */
    /** Enters one level of nesting; fails, sited at the current token, beyond {@link #MAX_DEPTH}. */
    void descend() {
        descend(1);
    }

    void descend(int levels) {
        depth += levels;
        if (depth > MAX_DEPTH) {
            depth = 0;
            throw error("expression tree is too large (maximum depth " + MAX_DEPTH + ")", peek());
        }
    }

    void ascend() {
        ascend(1);
    }

    void ascend(int levels) {
        depth = Math.max(0, depth - levels);
    }

    String text(SourceSpan span) {
        return span.text(sql);
    }

    /** The statement text from the start of {@code first} to the end of the last token read. */
    String textFrom(Token first) {
        return sql.substring(first.span().offset(), previous().span().offset() + previous().span().length());
    }

    DeriveException expected(String what) {
        Token t = peek();
        return error("syntax error: expected " + what + " but found " + t.describe(), t);
    }

    static DeriveException error(String message, Token at) {
        return at.span().error(DeriveException.SYNTAX, message);
    }
}
