/**
 * Durable databases: the catalog kept by a durable host (entries, stale set, clean-close
 * marker) and the rehydrate that reopens tables, views and materialized views, adopting or
 * refilling each (semantics §8) and reporting what it did; what waits for in-doubt branches of an
 * ended process, restored once they are decided; and the operators' heuristic decisions of them.
 */
package io.derive.engine.durable;
