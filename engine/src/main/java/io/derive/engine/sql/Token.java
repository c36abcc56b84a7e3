package io.derive.engine.sql;

import io.derive.engine.sql.ast.SourceSpan;
import java.util.Locale;

/**
 * One lexical token.
 *
 * @param kind  its class
 * @param text  the token's value: identifier or keyword as written, string contents without
 *              quotes, the operator, or the parameter as written ({@code ?3}, {@code :name})
 * @param span  where it is
 */
public record Token(TokenKind kind, String text, SourceSpan span) {

    public boolean isWord(String keyword) {
        return kind == TokenKind.WORD && text.equalsIgnoreCase(keyword);
    }

    public boolean isOperator(String op) {
        return kind == TokenKind.OPERATOR && text.equals(op);
    }

    /** How the token reads in an error message. */
    public String describe() {
        return switch (kind) {
            case EOF -> "end of input";
            case STRING -> "'" + text + "'";
            case WORD -> "'" + text.toLowerCase(Locale.ROOT) + "'";
            default -> "'" + text + "'";
        };
    }
}
