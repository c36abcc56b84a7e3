package io.derive.engine.mv;

import io.derive.engine.exec.context.ExecutionContext;
import io.derive.engine.exec.context.RunEvaluations;
import io.derive.engine.plan.BoundExpr;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.spi.KeyOrder;
import io.derive.engine.spi.KeyedDiff;
import io.derive.engine.spi.MaintenanceOp;
import io.derive.engine.spi.TableConnection;
import io.derive.engine.spi.TableShape;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The end of a chunked refresh run of a per-row view without evaluating its body again: the
 * run's shadow holds the body's rows as of the run's evaluation, and since then only the source
 * rows at the keys the run recorded ({@link RunEvaluations.SourceWrites}) can have changed, each
 * deriving at most the view row of its own key (semantics §4.1). So the diff that makes the
 * shadow the body now need only derive those keys' rows afresh, and its cost, and the time the
 * finish holds writers off, follow what was written during the run rather than the view's size.
 */
final class WrittenKeysDiff {
    private WrittenKeysDiff() {
    }

    /**
     * The changes that make {@code placed}, whose backing holds exactly {@code evaluation}'s rows,
     * its body as of the statement's snapshot; empty when that cannot be known this way: the run
     * did not record every write since its evaluation, the body is not a per-row projection of a
     * plain table whose key the view's key passes through unchanged, or the source or the body
     * changed since the evaluation. Call it holding what makes the snapshot final (the catalog
     * exclusive, the view locked whole).
     */
    static Optional<List<MaintenanceOp.Change>> changes(TableSchema placed, RunEvaluations.Evaluation evaluation,
                                                        ExecutionContext context) {
        Optional<RunEvaluations.SourceWrites> writes = evaluation.writesSince();
        TableSchema read = evaluation.source();
        if (writes.isEmpty() || read == null || !placed.derivation().bodySql().equals(evaluation.bodySql())
                || !(MaintenanceArm.of(placed) instanceof PerRowProjection arm)) {
            return Optional.empty();
        }
        TableSchema source = context.transaction().catalog().tableByKey(read.key()).orElse(null);
        if (source == null || !source.equals(read) || source.isMaintained()
                || !writes.get().sources().stream().allMatch(source.key()::equals)) {
            return Optional.empty();
        }
        int[] sourceKeyPositions = viewKeyFromSourceKey(placed, source, arm);
        if (sourceKeyPositions == null) {
            return Optional.empty();
        }
        TableShape shape = placed.storage().shape();
        List<Object[]> known = evaluation.rows();
        TableConnection sourceRows = context.transaction().connection(source);
        List<Object[]> current = new ArrayList<>();
        List<Object[]> incoming = new ArrayList<>();
        for (Object[] sourceKey : writes.get().keysOf(source.key())) {
            Object[] stored = find(known, shape, viewKey(sourceKey, sourceKeyPositions));
            if (stored != null) {
                current.add(stored);
            }
            sourceRows.get(sourceKey).map(arm::image).ifPresent(incoming::add);
        }
        KeyOrder order = shape.keyOrder();
        current.sort((a, b) -> order.compare(shape.keyOf(a), shape.keyOf(b)));
        return Optional.of(KeyedDiff.changes(shape, current, incoming));
    }

    /**
     * For each part of the view's key, the position in the source's key of the source column it
     * passes through unchanged (same type and collation, so the stored values are equal); null
     * when a part is computed or comes from a column outside the source's key.
     */
    private static int[] viewKeyFromSourceKey(TableSchema placed, TableSchema source, PerRowProjection arm) {
        List<BoundExpr> outputs = arm.rowProjection().orElseThrow();
        List<TableShape.KeyPart> viewKey = placed.primaryKey();
        List<TableShape.KeyPart> sourceKey = source.primaryKey();
        if (viewKey.size() != sourceKey.size()) {
            return null;
        }
        int[] positions = new int[viewKey.size()];
        boolean[] taken = new boolean[sourceKey.size()];
        for (int i = 0; i < positions.length; i++) {
            int column = viewKey.get(i).column();
            if (!(outputs.get(column) instanceof BoundExpr.ColumnSlot slot)
                    || source.columns().get(slot.index()).type() != placed.columns().get(column).type()
                    || source.columns().get(slot.index()).collation() != placed.columns().get(column).collation()) {
                return null;
            }
            positions[i] = positionIn(sourceKey, slot.index());
            if (positions[i] < 0 || taken[positions[i]]) {
                return null;
            }
            taken[positions[i]] = true;
        }
        return positions;
    }

    /** The position of {@code column} in {@code key}, or -1. */
    private static int positionIn(List<TableShape.KeyPart> key, int column) {
        for (int p = 0; p < key.size(); p++) {
            if (key.get(p).column() == column) {
                return p;
            }
        }
        return -1;
    }

    private static Object[] viewKey(Object[] sourceKey, int[] positions) {
        Object[] key = new Object[positions.length];
        for (int i = 0; i < positions.length; i++) {
            key[i] = sourceKey[positions[i]];
        }
        return key;
    }

    /** The row of {@code rows} (sorted by key) at {@code key}, or null. */
    private static Object[] find(List<Object[]> rows, TableShape shape, Object[] key) {
        int after = RefreshRun.after(rows, shape, key);
        if (after == 0) {
            return null;
        }
        Object[] candidate = rows.get(after - 1);
        return shape.keyOrder().compare(shape.keyOf(candidate), key) == 0 ? candidate : null;
    }
}
