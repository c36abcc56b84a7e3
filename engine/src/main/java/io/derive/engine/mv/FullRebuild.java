package io.derive.engine.mv;

import io.derive.engine.exec.context.ExecutionContext;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.spi.MaintenanceOp;

import java.util.List;

/**
 * The full-rebuild floor (semantics §4.5): any write to a source marks the MV dirty; at statement
 * end the body is evaluated again and applied as one keyed diff ({@code replaceAll}).
 *
 * <p>It is also the arm of a table whose declared primary key is not the body's provable key
 * ({@link #declaredKey()}): each rebuild checks the derived rows against that key, so a write
 * deriving two rows with one key fails instead of one row silently replacing the other.
 */
final class FullRebuild implements MaintenanceArm {
    static final String ARM = "full rebuild";

    private final List<String> outputColumns;
    private final boolean declaredKey;

    FullRebuild(List<String> outputColumns, boolean declaredKey) {
        this.outputColumns = List.copyOf(outputColumns);
        this.declaredKey = declaredKey;
    }

    @Override
    public List<MaintenanceOp> afterSourceChange(ExecutionContext context, TableSchema mv, TableSchema source,
                                                 Object[] before, Object[] after) {
        DeferredMaintenance.of(context).rebuild(mv);
        return List.of();
    }

    @Override
    public boolean declaredKey() {
        return declaredKey;
    }

    @Override
    public String arm() {
        return ARM;
    }

    @Override
    public List<String> outputColumns() {
        return outputColumns;
    }
}
