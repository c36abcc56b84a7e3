package io.derive.engine.exec;

import io.derive.engine.schema.TableSchema;

/**
 * Parent-side foreign-key actions for rows the engine itself changes in a table others reference
 * (semantics §6: when maintenance deletes or re-keys a materialized-view row that a child table
 * references, that foreign key's action runs, exactly as for a user's delete or update).
 */
public final class ReferentialActions {
    private ReferentialActions() {
    }

    /**
     * Runs the ON DELETE ({@code after} null) or ON UPDATE actions of the keys referencing the
     * changed row of {@code parent}, and checks the references they leave.
     *
     * @throws io.derive.engine.api.DeriveException {@code FOREIGN KEY constraint failed} for a
     *         RESTRICT, or a NO ACTION whose children still reference a missing parent
     */
    public static void afterParentChange(ExecutionContext context, TableSchema parent, Object[] before, Object[] after) {
        RowWriter writer = new RowWriter(context);
        writer.parentChanged(parent, before, after);
        writer.finish();
    }
}
