/**
 * What embedders program against once a database is open: {@link io.derive.engine.api.Database},
 * {@link io.derive.engine.api.Session}, {@link io.derive.engine.api.PreparedStatement},
 * {@link io.derive.engine.api.Result} and {@link io.derive.engine.api.Row}, and the one error type,
 * {@link io.derive.engine.api.DeriveException} (message, SQLSTATE-like code, line:column).
 *
 * <p>A leaf: it depends on the JDK alone, so every engine package may throw its exception and
 * the resource adapter's client API can mirror it without reaching into the implementation.
 * Opening a database is not here but in {@link io.derive.engine.Derive}.
 */
package io.derive.engine.api;
