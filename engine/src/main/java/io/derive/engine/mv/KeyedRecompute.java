package io.derive.engine.mv;

import io.derive.engine.exec.context.ExecutionContext;
import io.derive.engine.exec.expr.Parameters;
import io.derive.engine.exec.write.RowLocks;
import io.derive.engine.plan.PlanNode;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.spi.MaintenanceOp;
import io.derive.engine.spi.TableShape;
import io.derive.engine.txn.LockMode;
import io.derive.engine.types.Collation;
import io.derive.engine.types.ValueOrder;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The 1:1 join arm (semantics §4.3) and the lateral fan-out arm (§4.4): MV rows keyed first by a
 * driving-table key. A driving-table write records the row's key; a lookup-table write records
 * the driving keys that reference the changed lookup key, found by a query on the driving table's
 * referencing columns: an index seek, as {@link #seekColumns} asks an index of them (semantics
 * §4.3; {@link io.derive.engine.exec.ddl.SupportingIndexes} creates one where the table has none). At statement end each recorded
 * key's slice is recomputed: one row for a 1:1 join, the re-fanned rows of a lateral body.
 *
 * <p>A 1:1 join with an {@code order by} (the shape of a covering MV, semantics §6) applies a
 * driving-table write at once instead, recomputing that key's slice on the spot, so the MV's
 * driving-table columns are current row by row and it can answer the driving table's conflict
 * checks; its lookup-table writes still wait for statement end (they cannot change those columns).
 * Its slice key is the driving key followed by the ordering columns, which lead the backing's key.
 */
final class KeyedRecompute extends SliceRecompute {
    static final String ARM = "1:1 join";
    static final String LATERAL_ARM = "lateral fan-out";

    private final String arm;
    /**
     * How writes to one lookup table reach driving keys.
     *
     * @param lookupColumns  the lookup table's key columns, in the order the query's parameters take them
     * @param drivingColumns the driving table's referencing columns, paired with {@code lookupColumns}
     * @param findDriving    the driving keys whose referencing columns equal the parameters
     */
    record Lookup(int[] lookupColumns, int[] drivingColumns, PlanNode findDriving) {
        Parameters parameters(Object[] lookupRow) {
            Map<String, Object> named = new HashMap<>();
            for (int i = 0; i < lookupColumns.length; i++) {
                named.put(KeyedShape.LOOKUP_PARAMETER + i, lookupRow[lookupColumns[i]]);
            }
            return Parameters.named(named);
        }
    }

    private final String driving;
    private final int[] drivingKey;
    private final Map<String, Lookup> lookups;
    private final boolean rowTime;

    /** As {@link PerRowProjection}'s: the last coverage proof, for the MV and source objects it was made for. */
    private volatile CoveringStructures.Proof coverage;

    /**
     * @param drivingKey the driving-row columns making a slice key: the driving key, then any ordering columns
     * @param rowTime    whether driving-table writes apply at once (an ordered 1:1 join)
     */
    KeyedRecompute(String arm, List<String> outputColumns, String driving, int[] drivingKey, int[] keyOutputs,
                   List<Collation> collations, PlanNode slice, TableShape backing, Map<String, Lookup> lookups,
                   boolean rowTime) {
        super(outputColumns, KeyedShape.KEY_PARAMETER, keyOutputs, collations, slice, backing);
        this.arm = arm;
        this.driving = driving;
        this.drivingKey = drivingKey;
        this.lookups = Map.copyOf(lookups);
        this.rowTime = rowTime;
    }

    @Override
    public CoveringStructures.Proof coverage() {
        return coverage;
    }

    @Override
    public void coverage(CoveringStructures.Proof proof) {
        coverage = proof;
    }

    @Override
    public String arm() {
        return arm;
    }

    @Override
    public boolean currentRowByRow(String source) {
        return rowTime && driving.equals(source);
    }

    /**
     * A driving-table write touches its own rows' slice keys (recomputed at once on a row-time
     * arm); a lookup-table write touches the driving keys referencing the changed lookup key.
     */
    @Override
    public List<MaintenanceOp> afterSourceChange(ExecutionContext context, TableSchema mv, TableSchema source,
                                                 Object[] before, Object[] after) {
        if (driving.equals(source.key()) && after != null) {
            lockLookups(context, after);
        }
        if (driving.equals(source.key()) && rowTime) {
            List<Object[]> keys = new ArrayList<>();
            for (Object[] row : new Object[][] {before, after}) {
                if (row != null && (keys.isEmpty() || !ValueOrder.identicalRows(keys.get(0), keyOf(row)))) {
                    keys.add(keyOf(row));
                }
            }
            return recompute(context, mv, keys);
        }
        DeferredMaintenance work = DeferredMaintenance.of(context);
        if (driving.equals(source.key())) {
            for (Object[] row : new Object[][] {before, after}) {
                if (row != null) {
                    work.slice(mv, this, keyOf(row));
                }
            }
            return List.of();
        }
        Lookup lookup = lookups.get(source.key());
        for (Object[] row : new Object[][] {before, after}) {
            if (row != null) {
                for (Object[] key : context.queries(lookup.parameters(row)).readAll(lookup.findDriving())) {
                    work.slice(mv, this, key);
                }
            }
        }
        return List.of();
    }

    /**
     * Locks, shared, the lookup rows a driving row joins. A write to a lookup row locks it
     * exclusive and then recomputes the driving rows it finds; a driving row another transaction
     * is writing is not among them, so without this lock neither transaction would see the
     * other's change and the view row would keep the old lookup values.
     */
    private void lockLookups(ExecutionContext context, Object[] drivingRow) {
        for (Map.Entry<String, Lookup> e : lookups.entrySet()) {
            TableSchema lookup = context.transaction().catalog().tableByKey(e.getKey()).orElse(null);
            if (lookup == null) {
                continue;
            }
            int[] columns = e.getValue().drivingColumns();
            Object[] key = new Object[columns.length];
            for (int i = 0; i < columns.length; i++) {
                key[i] = drivingRow[columns[i]];
            }
            RowLocks.row(context.transaction(), lookup.storage(), key, LockMode.SHARED);
        }
    }

    /** The slice key of a driving-table row. */
    private Object[] keyOf(Object[] drivingRow) {
        Object[] key = new Object[drivingKey.length];
        for (int i = 0; i < key.length; i++) {
            key[i] = drivingRow[drivingKey[i]];
        }
        return key;
    }

    /** The driving table's referencing columns of each lookup: {@link KeyedShape} has an index seek them. */
    @Override
    public List<Set<Integer>> seekColumns(String table) {
        List<Set<Integer>> sets = new ArrayList<>();
        if (table.equals(driving)) {
            for (Lookup lookup : lookups.values()) {
                Set<Integer> columns = new LinkedHashSet<>();
                Arrays.stream(lookup.drivingColumns()).forEach(columns::add);
                sets.add(columns);
            }
        }
        return sets;
    }
}
