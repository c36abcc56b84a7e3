package io.derive.engine.sql.ast;

import io.derive.engine.api.DeriveException;

/**
 * Where a piece of SQL text is: 1-based line and column of its first character, and its extent
 * as a character offset and length into the statement text.
 */
public record SourceSpan(int line, int column, int offset, int length) {

    /** The span from the start of this one to the end of {@code last}. */
    public SourceSpan to(SourceSpan last) {
        return new SourceSpan(line, column, offset, last.offset + last.length - offset);
    }

    /**
     * The error a statement fails with at this place: {@code message} with this span's
     * line:column, under the SQLSTATE-like {@code code} (one of {@link DeriveException}'s
     * constants). The one way the engine sites an error in the SQL text.
     */
    public DeriveException error(String code, String message) {
        return new DeriveException(code, message, line, column);
    }

    public String text(String sql) {
        return sql.substring(offset, Math.min(sql.length(), offset + length));
    }
}
