package io.derive.engine.mv;

import io.derive.engine.exec.context.ExecutionContext;
import io.derive.engine.plan.BoundExpr;
import io.derive.engine.schema.Derivation;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.spi.MaintenanceOp;

import java.util.List;
import java.util.Optional;

/**
 * A maintenance arm as the manager ({@link MaterializedViews}) drives it: the compiled maintenance
 * of one materialized view, which reacts to its sources' row changes, settles at statement end
 * what it deferred, and says what else its MV supports (write-through, answering conflict checks,
 * a declared key). The manager applies the backing ops an arm returns and passes their changes on;
 * an arm never writes the backing itself. A new arm is one class implementing this; the defaults
 * are those of an arm that keeps no state of its own and supports none of those.
 *
 * <p>It is the {@code mv} side of {@link Derivation.Maintenance}, which the catalog carries without
 * knowing this package. Wherever a method takes {@code mv}, it is the maintained table whose
 * derivation holds this arm, as the statement's catalog has it; every method that takes a context
 * runs inside that statement, in its transaction, and any {@link io.derive.engine.api.DeriveException}
 * it throws (a value that no longer fits its column, a failing read) fails the statement. A stale
 * MV's arm hears of no source changes. An arm is shared by every transaction that sees its
 * catalog, so what it keeps between calls is either safe to race on or kept per transaction.
 */
interface MaintenanceArm extends Derivation.Maintenance {

    /**
     * The arm of maintained table {@code mv}: every maintenance the catalog carries was compiled
     * here, so this is the one place the catalog's type is narrowed to this package's.
     *
     * @throws NullPointerException when {@code mv} is not maintained
     */
    static MaintenanceArm of(TableSchema mv) {
        return (MaintenanceArm) mv.derivation().maintenance();
    }

    /**
     * Reacts to one row change of {@code source}, a table {@code mv} reads: returns the backing ops
     * that bring {@code mv} up to date at once, and records in the statement's
     * {@link DeferredMaintenance} what must wait for statement end. Precondition: {@code mv} is not
     * stale.
     *
     * @param before the row before the change, null for an insert
     * @param after  the row after it, null for a delete; not both null
     * @return the ops to apply now, in order; empty when the change reaches {@code mv} only at statement end
     */
    List<MaintenanceOp> afterSourceChange(ExecutionContext context, TableSchema mv, TableSchema source,
                                          Object[] before, Object[] after);

    /**
     * Whether each backing row the ops of {@link #afterSourceChange} touch carries the key of the
     * one source row that changed, so that the writer's lock on that source row already keeps
     * every other maintaining transaction off it. False by default: an arm whose rows gather
     * several source rows (a group, a join) must lock its rows itself.
     */
    default boolean rowsCarrySourceKey() {
        return false;
    }

    /**
     * The ops that make these slices of {@code mv} (keys as this arm records them in
     * {@link DeferredMaintenance}) equal to its body's rows for them now: each slice's rows no
     * longer produced are deleted, the others upserted. No slices give no ops, and nothing is read.
     *
     * @throws IllegalStateException when there are slices and this arm keeps none (it records none)
     */
    default List<MaintenanceOp> recompute(ExecutionContext context, TableSchema mv, List<Object[]> slices) {
        if (slices.isEmpty()) {
            return List.of();
        }
        throw new IllegalStateException("the " + arm() + " arm of '" + mv.qualifiedName() + "' keeps no slices");
    }

    /**
     * Settles at statement end the group changes the statement's source writes recorded for this
     * arm's MV: the ops publishing what the arm's own state can answer, and the groups that only
     * {@link #recompute} can publish. The ops are applied before those groups are recomputed. By
     * default every touched group is recomputed, which also settles changes that another arm of
     * the MV recorded before it was replaced.
     */
    default GroupFastPath.Outcome settle(ExecutionContext context, GroupChanges changes) {
        return new GroupFastPath.Outcome(List.of(), changes.touched().stream().map(GroupChanges.Touched::key).toList());
    }

    /**
     * Drops the state the statement's group changes touched, because its MV is being filled from
     * its body instead of settling them; by default there is none. The drop is undone with the
     * statement.
     */
    default void forget(ExecutionContext context, GroupChanges changes) {
    }

    /**
     * Called when its MV has been evaluated from its body and before those rows are applied to the
     * backing (create, attach, refresh, a rebuild), so the arm can derive state from its sources as
     * they are now; by default it keeps none. The state it derives is undone with the statement.
     */
    default void beforeFill(ExecutionContext context) {
    }

    /**
     * Whether the backing is keyed by a primary key the table declared and the body cannot prove:
     * then a body swap or recompile keeps that key, and no key column may be NULL.
     */
    default boolean declaredKey() {
        return false;
    }

    /**
     * Whether the MV's rows follow each write to the source with catalog key {@code source} as it
     * happens, rather than at statement end (MV-004), so that the MV may answer that source's
     * conflict checks; by default they do not. It says nothing of staleness, which the caller checks.
     */
    default boolean currentRowByRow(String source) {
        return false;
    }

    /**
     * The body's outputs over a row of its one source, when each MV row is one source row
     * projected, so that a write to the MV can be rewritten as a write to the source; empty for
     * any other body.
     */
    default Optional<List<BoundExpr>> rowProjection() {
        return Optional.empty();
    }

    /**
     * The last proof offered to {@link #coverage(CoveringStructures.Proof)}, or null; by default
     * none is kept. The caller checks that it was made for the objects at hand before reusing it.
     */
    default CoveringStructures.Proof coverage() {
        return null;
    }

    /**
     * Offers the arm the coverage proof ({@link CoveringStructures}) just made for its MV and a
     * source it is {@linkplain #currentRowByRow current row by row} for, so that statements writing
     * that source need not bind the body again. Readers may race, each then proves its own, so an
     * arm keeps it in a volatile field or not at all; by default not at all.
     */
    default void coverage(CoveringStructures.Proof proof) {
    }
}
