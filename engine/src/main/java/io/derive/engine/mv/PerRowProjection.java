package io.derive.engine.mv;

import io.derive.engine.exec.context.ExecutionContext;
import io.derive.engine.exec.expr.Evaluator;
import io.derive.engine.exec.expr.ExpressionCompiler;
import io.derive.engine.exec.expr.Parameters;
import io.derive.engine.plan.BoundExpr;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.spi.KeyOrder;
import io.derive.engine.spi.MaintenanceOp;
import io.derive.engine.spi.TableShape;
import io.derive.engine.types.ValueOrder;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BiPredicate;

/**
 * The per-row projection arm (semantics §4.1): one keyed source through filter and project,
 * its primary key carried. Each source row change becomes at most a delete and an upsert of
 * the backing, applied immediately, so the MV is current row by row and can be written through.
 */
final class PerRowProjection implements MaintenanceArm {
    private final List<String> outputColumns;
    private final BiPredicate<Object[], Parameters> predicate;
    private final List<BoundExpr> outputs;
    private final Evaluator[] projection;
    private final TableShape backing;
    /** Of {@link #backing}, kept because a write compares keys with it and building it allocates. */
    private final KeyOrder keyOrder;
    /** {@code mv.column} per output, the name a coercion error gives. */
    private final String[] labels;

    /**
     * The last coverage proof of this arm's MV against a state of its source, reused only for
     * that same pair ({@link CoveringStructures}); readers may race, each then proves its own.
     */
    private volatile CoveringStructures.Proof coverage;

    /**
     * @param predicate   the body's where clause over a source row, or null
     * @param projection  the body's outputs over a source row
     * @param backing     the backing's shape, whose key is the carried source key
     */
    PerRowProjection(List<String> outputColumns, BoundExpr predicate, List<BoundExpr> projection, TableShape backing) {
        this.outputColumns = List.copyOf(outputColumns);
        this.predicate = predicate == null ? null : ExpressionCompiler.predicate(predicate);
        this.outputs = List.copyOf(projection);
        this.projection = projection.stream().map(ExpressionCompiler::compile).toArray(Evaluator[]::new);
        this.backing = backing;
        this.keyOrder = backing.keyOrder();
        this.labels = backing.columns().stream().map(c -> backing.name() + "." + c.name()).toArray(String[]::new);
    }

    /** The arm's name, as {@code explain} and {@code materialized_views()} show it. */
    static final String ARM = "per-row projection";

    @Override
    public String arm() {
        return ARM;
    }

    @Override
    public List<String> outputColumns() {
        return outputColumns;
    }

    @Override
    public Optional<List<BoundExpr>> rowProjection() {
        return Optional.of(outputs);
    }

    @Override
    public boolean currentRowByRow(String source) {
        return true;
    }

    /** The backing's key is the carried source key, before and after images alike. */
    @Override
    public boolean rowsCarrySourceKey() {
        return true;
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
    public List<MaintenanceOp> afterSourceChange(ExecutionContext context, TableSchema mv, TableSchema source,
                                                 Object[] before, Object[] after) {
        Object[] oldImage = before != null && inScope(before) ? project(before) : null;
        Object[] newImage = after != null && inScope(after) ? project(after) : null;
        if (oldImage != null && newImage != null && ValueOrder.identicalRows(oldImage, newImage)) {
            return List.of();
        }
        // The backing's key carries the source's, so the old image is the view's row at its key
        // and no other source row's image shares the new one's: the host need not read either.
        // Not so over a view, whose rows can lag behind this one's (refilled after a wait while
        // this one was adopted): the host then looks at what it holds.
        boolean known = !source.isMaintained();
        if (oldImage != null && newImage != null
                && keyOrder.compare(backing.keyOf(oldImage), backing.keyOf(newImage)) == 0) {
            return List.of(known ? new MaintenanceOp.Change(oldImage, newImage) : new MaintenanceOp.Upsert(newImage));
        }
        List<MaintenanceOp> ops = new ArrayList<>(2);
        if (oldImage != null) {
            ops.add(known ? new MaintenanceOp.Change(oldImage, null) : new MaintenanceOp.DeleteKey(backing.keyOf(oldImage)));
        }
        if (newImage != null) {
            ops.add(known ? new MaintenanceOp.Change(null, newImage) : new MaintenanceOp.Upsert(newImage));
        }
        return ops;
    }

    /** The view's row that source row {@code row} derives, as the backing stores it; null when the body's filter drops it. */
    Object[] image(Object[] row) {
        return inScope(row) ? project(row) : null;
    }

    private boolean inScope(Object[] row) {
        return predicate == null || predicate.test(row, Parameters.none());
    }

    private Object[] project(Object[] row) {
        Object[] out = new Object[projection.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = backing.columns().get(i).type().coerce(projection[i].eval(row, Parameters.none()), labels[i]);
        }
        return out;
    }
}
