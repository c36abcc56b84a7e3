/**
 * The first step of the data path: the lexer and the recursive-descent parser of the
 * SQLite-flavoured dialect (semantics §1–2), producing the AST of {@code sql.ast}. Syntax errors
 * are reported here, each with the line:column of the offending token.
 *
 * <p>Not here: name resolution or any knowledge of the catalog (that is {@code plan}).
 */
package io.derive.engine.sql;
