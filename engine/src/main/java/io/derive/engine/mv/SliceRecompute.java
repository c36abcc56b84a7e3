package io.derive.engine.mv;

import io.derive.engine.exec.context.ExecutionContext;
import io.derive.engine.exec.expr.Parameters;
import io.derive.engine.exec.query.EqualityKey;
import io.derive.engine.plan.PlanNode;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.spi.BackingHost;
import io.derive.engine.spi.KeyOrder;
import io.derive.engine.spi.MaintenanceOp;
import io.derive.engine.spi.RowCursor;
import io.derive.engine.spi.TableConnection;
import io.derive.engine.spi.TableShape;
import io.derive.engine.txn.LockMode;
import io.derive.engine.types.Collation;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * An arm that keeps an MV current slice by slice: source writes record which slices (groups, or
 * driving-table keys) they touched; at statement end each slice is re-evaluated from live data
 * through a plan restricted to it by named parameters, giving an upsert, or a delete when the
 * slice no longer produces a row.
 */
abstract class SliceRecompute implements MaintenanceArm {
    private final List<String> outputColumns;
    private final String parameterPrefix;
    private final int[] outputPositions;
    private final List<Collation> collations;
    private final KeyOrder sliceOrder;
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
        this.sliceOrder = new KeyOrder(collations, Collections.nCopies(collations.size(), false));
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

    /**
     * A keyed diff per slice against the slice's rows in the backing: a value-identical upsert
     * changes nothing, so only the rows the slice no longer produces need comparing.
     */
    @Override
    public List<MaintenanceOp> recompute(ExecutionContext context, TableSchema mv, List<Object[]> slices) {
        if (slices.isEmpty()) {
            return List.of();
        }
        BackingHost host = MaterializedViews.backingHost(mv);
        TableConnection connection = context.transaction().connection(mv);
        List<MaintenanceOp> ops = new ArrayList<>();
        // In key order: two statements recomputing the same slices lock them in one order, never in a cycle.
        List<Object[]> ordered = new ArrayList<>(slices);
        ordered.sort(sliceOrder);
        for (Object[] key : ordered) {
            // A slice is a function of source rows other writers may change: it is recomputed by one at a time.
            context.transaction().lockRow(mv.storage(), EqualityKey.of(key, collations), LockMode.EXCLUSIVE);
            TreeSet<Object[]> produced = new TreeSet<>(backing.keyOrder());
            List<MaintenanceOp> upserts = new ArrayList<>();
            for (Object[] row : context.queries(parameters(parameterPrefix, key)).readAll(slice)) {
                Object[] stored = MaterializedViews.stored(mv, row);
                produced.add(backing.keyOf(stored));
                upserts.add(new MaintenanceOp.Upsert(stored));
            }
            try (RowCursor existing = host.scanEffective(connection, backingPrefix(key), false)) {
                while (existing.hasNext()) {
                    Object[] rowKey = backing.keyOf(existing.next());
                    if (!produced.contains(rowKey)) {
                        ops.add(new MaintenanceOp.DeleteKey(rowKey));
                    }
                }
            }
            ops.addAll(upserts);
        }
        return ops;
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
    private Object[] backingPrefix(Object[] key) {
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
}
