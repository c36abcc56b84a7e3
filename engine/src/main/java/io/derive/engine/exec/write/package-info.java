/**
 * Writing rows and the constraint runtime every write goes through: the row writer, NOT NULL,
 * CHECK and PK/UNIQUE checks with their conflict outcomes, foreign keys with their actions,
 * checks deferred to commit, row ids of keyless tables and index key shapes.
 *
 * <p>Shared by DML, DDL that rewrites rows and materialized-view maintenance; it decides whether
 * a row may be written, not which statement wrote it.
 */
package io.derive.engine.exec.write;
