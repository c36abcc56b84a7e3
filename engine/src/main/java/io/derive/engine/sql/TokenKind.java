package io.derive.engine.sql;

/** Lexical classes of the dialect. Keywords are {@link #WORD}s; the parser recognises them in context. */
public enum TokenKind {
    WORD, QUOTED_IDENTIFIER, STRING, INTEGER, REAL, BLOB, PARAMETER, OPERATOR, EOF
}
