package io.derive.engine.sql.ast;

/**
 * Where a piece of SQL text is: 1-based line and column of its first character, and its extent
 * as a character offset and length into the statement text.
 */
public record SourceSpan(int line, int column, int offset, int length) {

    /** The span from the start of this one to the end of {@code last}. */
    public SourceSpan to(SourceSpan last) {
        return new SourceSpan(line, column, offset, last.offset + last.length - offset);
    }

    public String text(String sql) {
        return sql.substring(offset, Math.min(sql.length(), offset + length));
    }
}
