/**
 * The value model every layer shares: SQL types and their coercions, collations, the total
 * order of values (NULLs, numbers of every kind, text, blobs, temporals), and the text and
 * temporal value rules.
 *
 * <p>Below both {@code schema} and {@code spi}: the catalog declares columns in these terms and
 * the hosts order their keys by them, so neither has to know the other. No catalog objects here.
 */
package io.derive.engine.types;
