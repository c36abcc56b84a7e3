/**
 * The second step of the data path: binding (names, scopes, types, collations) of the AST into
 * bound expressions and logical plan nodes, and the planning decisions — key-prefix seeks and
 * access paths, join order and join strategy — plus the analyses materialized views need (keys,
 * nullability, column origins).
 *
 * <p>Reads the catalog, produces plans; it never reads rows (that is {@code exec}).
 */
package io.derive.engine.plan;
