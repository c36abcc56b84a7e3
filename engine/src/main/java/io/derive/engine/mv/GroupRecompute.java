package io.derive.engine.mv;

import io.derive.engine.exec.Parameters;
import io.derive.engine.plan.PlanNode;
import io.derive.engine.schema.Collation;
import io.derive.engine.schema.Derivation;
import io.derive.engine.spi.TableShape;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The group-recompute arm (semantics §4.2): a source write records the old and new group keys of
 * the row; at statement end each recorded group is recomputed from live data through the slice
 * plan (the body restricted to one group), giving an upsert, or a delete when the group is empty.
 */
final class GroupRecompute implements Derivation.Maintenance {
    static final String ARM = "group recompute";

    private final List<String> outputColumns;
    private final String source;
    private final int[] sourceColumns;
    private final int[] outputPositions;
    private final List<Collation> collations;
    private final PlanNode slice;
    private final TableShape backing;

    GroupRecompute(List<String> outputColumns, String source, int[] sourceColumns, int[] outputPositions,
                   List<Collation> collations, PlanNode slice, TableShape backing) {
        this.outputColumns = List.copyOf(outputColumns);
        this.source = source;
        this.sourceColumns = sourceColumns;
        this.outputPositions = outputPositions;
        this.collations = List.copyOf(collations);
        this.slice = slice;
        this.backing = backing;
    }

    @Override
    public String arm() {
        return ARM;
    }

    @Override
    public List<String> outputColumns() {
        return outputColumns;
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

    List<Collation> collations() {
        return collations;
    }

    PlanNode slice() {
        return slice;
    }

    /** The bindings that restrict the slice plan to one group. */
    Parameters sliceParameters(Object[] group) {
        Map<String, Object> named = new HashMap<>();
        for (int i = 0; i < group.length; i++) {
            named.put(GroupShape.GROUP_PARAMETER + i, group[i]);
        }
        return Parameters.named(named);
    }

    /** The backing key of a group's row: its group values at their output positions, in key order. */
    Object[] backingKey(Object[] group) {
        Object[] row = new Object[backing.columns().size()];
        for (int i = 0; i < group.length; i++) {
            row[outputPositions[i]] = group[i];
        }
        return backing.keyOf(row);
    }
}
