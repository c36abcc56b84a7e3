package io.derive.engine.sql;

import io.derive.engine.sql.ast.SourceSpan;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Replaces single identifiers of a statement text, each found through the span of the AST node
 * that holds it, and leaves every other character as it was written: keywords, spacing,
 * comments, string literals (a literal that spells a renamed name is text, not a name) and the
 * other identifiers keep their spelling.
 *
 * <p>A node's span covers whole tokens, so the identifier to replace is the span's first token
 * (the qualifier of {@code t.c}, the {@code t} of {@code t.*}) or its last (the column of
 * {@code t.c}, the object of {@code s.t}); the replacement is SQL text, already quoted where the
 * new name needs it. The same token may be replaced more than once with the same text (a common
 * table bound once per reference reports its names each time).
 */
public final class IdentifierEdits {
    private final String sql;
    private List<Token> tokens;
    /** Replacements by the offset of the token they replace. */
    private final Map<Integer, Edit> edits = new TreeMap<>();

    private record Edit(Token token, String text) {
    }

    /** @param sql the text the spans given to this object point into */
    public IdentifierEdits(String sql) {
        this.sql = sql;
    }

    /** Replaces the first token of {@code span} (a qualifier) by {@code text}. */
    public void replaceFirst(SourceSpan span, String text) {
        List<Token> inside = tokensOf(span);
        replace(inside.get(0), text);
    }

    /** Replaces the last token of {@code span} (a column or an object name) by {@code text}. */
    public void replaceLast(SourceSpan span, String text) {
        List<Token> inside = tokensOf(span);
        replace(inside.get(inside.size() - 1), text);
    }

    /** Whether no identifier is replaced (the text would stay as it is). */
    public boolean isEmpty() {
        return edits.isEmpty();
    }

    /** The text with every replacement made. */
    public String result() {
        StringBuilder out = new StringBuilder(sql.length() + 16);
        int at = 0;
        for (Edit edit : edits.values()) {
            SourceSpan s = edit.token().span();
            out.append(sql, at, s.offset()).append(edit.text());
            at = s.offset() + s.length();
        }
        return out.append(sql, at, sql.length()).toString();
    }

    private void replace(Token token, String text) {
        if (token.kind() != TokenKind.WORD && token.kind() != TokenKind.QUOTED_IDENTIFIER) {
            throw new IllegalArgumentException("not an identifier: " + token.describe() + " at " + token.span());
        }
        Edit previous = edits.putIfAbsent(token.span().offset(), new Edit(token, text));
        if (previous != null && !previous.text().equals(text)) {
            throw new IllegalStateException("identifier " + token.describe() + " at " + token.span()
                    + " replaced by both " + previous.text() + " and " + text);
        }
    }

    /** The tokens lying inside {@code span}, in order; never empty for a node's span. */
    private List<Token> tokensOf(SourceSpan span) {
        if (tokens == null) {
            tokens = Lexer.tokenize(sql);
        }
        List<Token> inside = new ArrayList<>();
        int end = span.offset() + span.length();
        for (Token t : tokens) {
            int start = t.span().offset();
            if (t.kind() != TokenKind.EOF && start >= span.offset() && start + t.span().length() <= end) {
                inside.add(t);
            }
        }
        if (inside.isEmpty()) {
            throw new IllegalArgumentException("no token inside " + span);
        }
        return inside;
    }
}
