/**
 * Transactions: a {@link io.derive.engine.txn.Transaction} registers every table connection it
 * touches, keeps its working catalog, and commits in two steps (prepare, then commit of every
 * registered connection) so that XA can call them apart; the committed state, the lock table,
 * the fences of what waits for in-doubt branches, and per-session host resources.
 */
package io.derive.engine.txn;
