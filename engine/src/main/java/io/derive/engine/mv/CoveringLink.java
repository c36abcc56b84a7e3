package io.derive.engine.mv;

import io.derive.engine.schema.IndexSchema;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.types.Collation;

import java.util.StringJoiner;

/**
 * What {@link CoverageProver} proved: materialized view {@code mv} covers unique index
 * {@code index} of its source (semantics §6).
 *
 * @param prefixColumns for each leading backing-key column (the body's order by), the source column it publishes
 * @param keyOutputs    for each primary-key column of the source, the MV column publishing it
 * @param reliesOnForeignKey true for an inner-join body, which has a row for every source row only
 *                      while the source's foreign key to the lookup table is enforced
 */
record CoveringLink(TableSchema mv, IndexSchema index, int[] prefixColumns, int[] keyOutputs,
                    boolean reliesOnForeignKey) {

    /**
     * Whether the MV may answer the index's conflict checks row by row: only the per-row arm, and
     * an ordered 1:1 join for writes to its driving table, are current mid-statement (the others
     * catch up at statement end, MV-004; a 1:1 join's lookup-table writes do too, but they cannot
     * change the driving table's columns the probe reads), a stale MV no longer
     * follows its source, and the backing's seek groups values by the columns' declared collation,
     * so the index must compare no coarser than that: per column BINARY (byte-equal values are
     * equal under any collation) or the declared collation itself. An inner-join body loses the
     * source rows whose parent is missing, which only {@code pragma foreign_keys} rules out, so
     * such a link enforces only while it is on (the link itself, and {@code covers}, hold regardless).
     * Rows admitted while it was off are not re-validated when it comes back on (as for any table,
     * seed "FK pragma gate"); the link then trusts the key as the seed's inclusion-dependency rule
     * does, so an orphan kept from such a time is missing from the MV and its value is not probed.
     */
    boolean enforces(TableSchema source, boolean foreignKeysOn) {
        if (!currentRowByRow(mv, source) || reliesOnForeignKey && !foreignKeysOn) {
            return false;
        }
        for (IndexSchema.IndexColumn c : index.columns()) {
            if (c.collation() != Collation.BINARY && c.collation() != source.columns().get(c.column()).collation()) {
                return false;
            }
        }
        return true;
    }

    /** Whether {@code mv}'s rows follow each write to {@code source} as it happens (see {@link #enforces}). */
    static boolean currentRowByRow(TableSchema mv, TableSchema source) {
        return !mv.derivation().stale() && MaintenanceArm.of(mv).currentRowByRow(source.key());
    }

    /** The backing-key prefix a source row's conflicts are under, in the backing's key order. */
    Object[] prefix(Object[] sourceRow) {
        Object[] prefix = new Object[prefixColumns.length];
        for (int i = 0; i < prefix.length; i++) {
            prefix[i] = sourceRow[prefixColumns[i]];
        }
        return prefix;
    }

    /** The primary key of the source row an MV row was derived from. */
    Object[] sourceKey(Object[] mvRow) {
        Object[] key = new Object[keyOutputs.length];
        for (int i = 0; i < key.length; i++) {
            key[i] = mvRow[keyOutputs[i]];
        }
        return key;
    }

    /** The covered constraint as {@code materialized_views()} names it: {@code t(a, b)}. */
    String describe(TableSchema source) {
        StringJoiner columns = new StringJoiner(", ", source.name() + "(", ")");
        index.columns().forEach(c -> columns.add(source.columns().get(c.column()).name()));
        return columns.toString();
    }
}
