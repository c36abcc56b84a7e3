package io.derive.engine.mv;

import io.derive.engine.exec.expr.Parameters;
import io.derive.engine.plan.PlanNode;
import io.derive.engine.schema.Derivation;
import io.derive.engine.spi.TableShape;
import io.derive.engine.types.Collation;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * An arm that keeps an MV current slice by slice: source writes record which slices (groups, or
 * driving-table keys) they touched; at statement end each slice is re-evaluated from live data
 * through a plan restricted to it by named parameters, giving an upsert, or a delete when the
 * slice no longer produces a row.
 */
abstract class SliceRecompute implements Derivation.Maintenance {
    private final List<String> outputColumns;
    private final String parameterPrefix;
    private final int[] outputPositions;
    private final List<Collation> collations;
    private final PlanNode slice;
    private final TableShape backing;

    /**
     * @param outputPositions where each slice-key value is published in the MV's rows
     * @param slice           the body restricted to one slice through parameters {@code prefix + i}
     */
    SliceRecompute(List<String> outputColumns, String parameterPrefix, int[] outputPositions,
                   List<Collation> collations, PlanNode slice, TableShape backing) {
        this.outputColumns = List.copyOf(outputColumns);
        this.parameterPrefix = parameterPrefix;
        this.outputPositions = outputPositions;
        this.collations = List.copyOf(collations);
        this.slice = slice;
        this.backing = backing;
    }

    @Override
    public List<String> outputColumns() {
        return outputColumns;
    }

    List<Collation> collations() {
        return collations;
    }

    PlanNode slice() {
        return slice;
    }

    /** The bindings that restrict the slice plan to one slice. */
    Parameters sliceParameters(Object[] key) {
        return parameters(parameterPrefix, key);
    }

    /** Binds {@code prefix + i} to each slice-key value {@code key[i]}. */
    static Parameters parameters(String prefix, Object[] key) {
        Map<String, Object> named = new HashMap<>();
        for (int i = 0; i < key.length; i++) {
            named.put(prefix + i, key[i]);
        }
        return Parameters.named(named);
    }

    /**
     * The slice's rows in the backing: those whose physical key starts with these values (the
     * slice key, in key order; the whole key when a slice has at most one row).
     */
    Object[] backingPrefix(Object[] key) {
        Object[] row = new Object[backing.columns().size()];
        for (int i = 0; i < key.length; i++) {
            row[outputPositions[i]] = key[i];
        }
        Object[] prefix = new Object[key.length];
        for (int i = 0; i < prefix.length; i++) {
            prefix[i] = row[backing.key().get(i).column()];
        }
        return prefix;
    }

    TableShape backing() {
        return backing;
    }
}
