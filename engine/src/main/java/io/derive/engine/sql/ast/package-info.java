/**
 * The syntax tree the parser produces: statements, select bodies and expressions, each node
 * carrying the {@link io.derive.engine.sql.ast.SourceSpan} of its text, plus generic walks and
 * rewrites over the tree. {@link io.derive.engine.sql.ast.SourceSpan#error} is how any later
 * stage sites an error in the statement's text.
 *
 * <p>Plain data with no view of the catalog; used by every stage after parsing.
 */
package io.derive.engine.sql.ast;
