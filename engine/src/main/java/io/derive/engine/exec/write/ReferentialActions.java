package io.derive.engine.exec.write;

import io.derive.engine.exec.context.ExecutionContext;
import io.derive.engine.schema.TableSchema;

/**
 * Parent-side foreign-key actions for rows the engine itself changes in a table others reference
 * (semantics §6: when maintenance deletes or re-keys a materialized-view row that a child table
 * references, that foreign key's action runs, exactly as for a user's delete or update). One
 * {@link RowWriter} serves all of a statement's maintenance, so NO ACTION references and the
 * rows the actions write are checked once, at the end of the statement, as for a user's write.
 */
public final class ReferentialActions {

    /** The statement's writer for the engine's own parent-side changes. */
    private record MaintenanceWrites(RowWriter writer) {
    }

    private ReferentialActions() {
    }

    /**
     * Runs the ON DELETE ({@code after} null) or ON UPDATE actions of the keys referencing the
     * changed row of {@code parent}; what they leave is checked at the end of the statement.
     *
     * @throws io.derive.engine.api.DeriveException {@code FOREIGN KEY constraint failed: DELETE
     *         on 'm' violates RESTRICT from 'c'} when a RESTRICT child references the row
     */
    public static void afterParentChange(ExecutionContext context, TableSchema parent, Object[] before, Object[] after) {
        context.work().part(MaintenanceWrites.class, () -> new MaintenanceWrites(new RowWriter(context)))
                .writer().parentChanged(parent, before, after);
    }

    /**
     * At the end of the statement, after its maintenance: the references NO ACTION left and the
     * rows the actions wrote must hold.
     *
     * @throws io.derive.engine.api.DeriveException {@code FOREIGN KEY constraint failed: DELETE
     *         on 'm' leaves rows of 'c' referencing a missing parent (NO ACTION)}
     */
    public static void finishStatement(ExecutionContext context) {
        MaintenanceWrites writes = context.work().existing(MaintenanceWrites.class);
        if (writes != null) {
            context.work().remove(MaintenanceWrites.class);
            writes.writer().finish();
        }
    }
}
