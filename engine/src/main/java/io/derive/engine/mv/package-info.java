/**
 * The materialized-view manager: registration (body analysis, key inference, arm choice),
 * the maintenance arms ({@link io.derive.engine.mv.MaintenanceArm}: per-row projection, group
 * recompute, 1:1 join, full rebuild), end-of-statement maintenance, derived-row constraints,
 * covering structures, write-through, staleness, refresh, attach and detach.
 *
 * <p>It implements {@code exec.context}'s materialized-view port and uses the executors below
 * it; nothing in {@code exec} depends on it.
 */
package io.derive.engine.mv;
