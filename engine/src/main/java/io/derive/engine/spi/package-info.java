/**
 * What a host implements: {@link io.derive.engine.spi.TableModule} (create, reopen, drop tables),
 * {@link io.derive.engine.spi.HostedTable} and its per-transaction
 * {@link io.derive.engine.spi.TableConnection} (ordered scans, key-prefix seeks, point lookups,
 * writes, savepoints, two-step commit), and the backing-host capability that applies
 * materialized-view maintenance ({@link io.derive.engine.spi.BackingHost},
 * {@link io.derive.engine.spi.MaintenanceOp}, {@link io.derive.engine.spi.BackingRowChange}).
 *
 * <p>The contract between the engine and the {@code memory} and {@code derby} hosts; it depends
 * only on {@code types} and {@code api}, never on the catalog, so a host needs nothing else.
 */
package io.derive.engine.spi;
