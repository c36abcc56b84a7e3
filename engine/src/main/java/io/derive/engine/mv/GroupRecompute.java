package io.derive.engine.mv;

import io.derive.engine.plan.PlanNode;
import io.derive.engine.schema.Collation;
import io.derive.engine.spi.TableShape;

import java.util.List;

/**
 * The group-recompute arm (semantics §4.2): a source write records the old and new group keys of
 * the row; at statement end each recorded group is recomputed from live data through the slice
 * plan (the body restricted to one group), giving an upsert, or a delete when the group is empty.
 */
final class GroupRecompute extends SliceRecompute {
    static final String ARM = "group recompute";

    private final String source;
    private final int[] sourceColumns;

    GroupRecompute(List<String> outputColumns, String source, int[] sourceColumns, int[] outputPositions,
                   List<Collation> collations, PlanNode slice, TableShape backing) {
        super(outputColumns, GroupShape.GROUP_PARAMETER, outputPositions, collations, slice, backing);
        this.source = source;
        this.sourceColumns = sourceColumns;
    }

    @Override
    public String arm() {
        return ARM;
    }

    /** The catalog key of the one table the body reads. */
    String source() {
        return source;
    }

    /** The group key values of a source row. */
    Object[] groupOf(Object[] sourceRow) {
        Object[] key = new Object[sourceColumns.length];
        for (int i = 0; i < key.length; i++) {
            key[i] = sourceRow[sourceColumns[i]];
        }
        return key;
    }
}
