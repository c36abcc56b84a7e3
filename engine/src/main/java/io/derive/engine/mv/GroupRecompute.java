package io.derive.engine.mv;

import io.derive.engine.exec.context.ExecutionContext;
import io.derive.engine.plan.PlanNode;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.spi.MaintenanceOp;
import io.derive.engine.spi.TableShape;
import io.derive.engine.types.Collation;

import java.util.List;

/**
 * The group-recompute arm (semantics §4.2). When every aggregate of the body is decomposable the
 * arm keeps each group's row by deltas ({@link GroupFastPath}): a source write's old row is taken
 * out of its group and its new row put in, and the group is read from the source only where the
 * algebra cannot answer (a retracted extreme, a group not known yet). Otherwise a source write
 * records the old and new group keys of the row, and at statement end each recorded group is
 * recomputed from live data through the slice plan (the body restricted to one group), giving an
 * upsert, or a delete when the group is empty. Either way it is the same arm: the view is kept
 * group by group at statement end, and {@code explain} names it so.
 */
final class GroupRecompute extends SliceRecompute {
    static final String ARM = "group recompute";

    private final String source;
    private final int[] sourceColumns;
    private final GroupFastPath fastPath;

    /** @param fastPath the delta path, or null when some aggregate is not decomposable */
    GroupRecompute(List<String> outputColumns, String source, int[] sourceColumns, int[] outputPositions,
                   List<Collation> collations, PlanNode slice, TableShape backing, GroupFastPath fastPath) {
        super(outputColumns, GroupShape.GROUP_PARAMETER, outputPositions, collations, slice, backing);
        this.source = source;
        this.sourceColumns = sourceColumns;
        this.fastPath = fastPath;
    }

    @Override
    public String arm() {
        return ARM;
    }

    /**
     * A write to the one table the body reads records the groups it touched. The arm knows that
     * table's groups only, so a change reaching it from any other falls back to the floor: a rebuild.
     */
    @Override
    public List<MaintenanceOp> afterSourceChange(ExecutionContext context, TableSchema mv, TableSchema changed,
                                                 Object[] before, Object[] after) {
        DeferredMaintenance work = DeferredMaintenance.of(context);
        if (!source.equals(changed.key())) {
            work.rebuild(mv);
        } else if (fastPath != null) {
            fastPath.record(context.transaction(), mv.storage(), work.groupChanges(mv), !changed.isMaintained(), before, after);
        } else {
            if (before != null) {
                work.slice(mv, this, groupOf(before));
            }
            if (after != null) {
                work.slice(mv, this, groupOf(after));
            }
        }
        return List.of();
    }

    @Override
    public GroupFastPath.Outcome settle(ExecutionContext context, GroupChanges changes) {
        return fastPath == null ? super.settle(context, changes) : fastPath.finish(context, changes);
    }

    @Override
    public void forget(ExecutionContext context, GroupChanges changes) {
        if (fastPath != null) {
            fastPath.forget(context.transaction(), changes);
        }
    }

    /** Primes the fast path's group states when it knows none (an MV filled again keeps the ones it has). */
    @Override
    public void beforeFill(ExecutionContext context) {
        if (fastPath != null && fastPath.store().size() == 0) {
            fastPath.prime(context);
        }
    }

    private Object[] groupOf(Object[] sourceRow) {
        Object[] key = new Object[sourceColumns.length];
        for (int i = 0; i < key.length; i++) {
            key[i] = sourceRow[sourceColumns[i]];
        }
        return key;
    }
}
