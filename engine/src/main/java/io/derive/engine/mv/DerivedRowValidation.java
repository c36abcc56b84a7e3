package io.derive.engine.mv;

import io.derive.engine.exec.context.ExecutionContext;
import io.derive.engine.exec.write.DeferredRowChecks;
import io.derive.engine.schema.Catalog;
import io.derive.engine.schema.CheckConstraint;
import io.derive.engine.schema.Derivation;
import io.derive.engine.schema.IndexSchema;
import io.derive.engine.schema.TableConstraints;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.spi.BackingRowChange;

import java.util.ArrayList;
import java.util.List;

/**
 * When the declared constraints of a maintained table are checked for the rows maintenance
 * writes (semantics §6, MV-017): every row a maintenance batch inserts or updates must pass the
 * table's CHECKs on insert or update (a CHECK on delete alone never applies), must not collide on its declared UNIQUE indexes (checked against the contents
 * after the whole batch, so a value moving between keys in one batch succeeds) and must
 * reference an existing parent row through its foreign keys while {@code pragma foreign_keys} is
 * on (MATCH SIMPLE). Deletes are never validated. A violation always aborts: no conflict clause
 * of the writing statement applies to it ({@link io.derive.engine.exec.write.DerivedRowViolation}).
 *
 * <p>Bulk paths (the fill of create, attach and refresh) check everything at once. In steady
 * state a row-local CHECK and UNIQUE are checked at once too, but foreign keys and CHECKs that
 * read tables are checked at commit, against the transaction's final state
 * ({@link DeferredRowChecks}), as an ordinary table's would be: a source write may derive a row
 * whose parent the same transaction adds later. A table that declares no constraint pays one
 * emptiness test per batch; its validator is compiled on first use, cached with the derivation
 * and compiled again when a table it depends on changed ({@link DerivedRowValidator#fits}).
 */
final class DerivedRowValidation {
    private DerivedRowValidation() {
    }

    /**
     * Checks the realized changes of one batch.
     *
     * @param bulk true for the fill of create, attach and refresh: nothing waits for commit
     */
    static void validate(ExecutionContext context, TableSchema mv, List<BackingRowChange> changes, boolean bulk) {
        if (changes.isEmpty() || !declaresConstraints(mv)) {
            return;
        }
        List<Object[]> written = new ArrayList<>(changes.size());
        for (BackingRowChange change : changes) {
            if (change.after() != null) {
                written.add(change.after());
            }
        }
        if (written.isEmpty()) {
            return;
        }
        DerivedRowValidator validator = validator(mv, context.transaction().catalog());
        validator.requireCompiled();
        validator.checkRowLocal(written, context.parameters());
        if (validator.hasUniqueIndexes()) {
            validator.checkUnique(context.transaction(), mv, written);
        }
        boolean foreignKeys = context.pragmas().foreignKeys();
        if (bulk) {
            validator.checkDeferred(context, written, foreignKeys);
        } else if (validator.defersSome(foreignKeys)) {
            for (Object[] row : written) {
                DeferredRowChecks.derived(context, mv, row);
            }
        }
    }

    /** At commit: the constraints of derived rows that waited for it, with the pragma as it is now. */
    static void validateAtCommit(ExecutionContext context, TableSchema mv, List<Object[]> rows) {
        if (!declaresConstraints(mv)) {
            return;
        }
        DerivedRowValidator validator = validator(mv, context.transaction().catalog());
        validator.requireCompiled();
        validator.checkDeferred(context, rows, context.pragmas().foreignKeys());
    }

    static boolean declaresConstraints(TableSchema mv) {
        TableConstraints c = mv.constraints();
        if (!c.foreignKeys().isEmpty()) {
            return true;
        }
        // indexed loops, not streams or iterators: this runs for every maintained row change
        List<CheckConstraint> checks = c.checks();
        for (int i = 0; i < checks.size(); i++) {
            if (checks.get(i).appliesToDerivedRows()) {
                return true;
            }
        }
        List<IndexSchema> indexes = c.indexes();
        for (int i = 0; i < indexes.size(); i++) {
            if (indexes.get(i).unique()) {
                return true;
            }
        }
        return false;
    }

    /** The cached validator when it still fits the table and the catalog, else a newly compiled one. */
    private static DerivedRowValidator validator(TableSchema mv, Catalog catalog) {
        Derivation.ValidatorSlot slot = mv.derivation().validator();
        Derivation.Validator cached = slot.get();
        if (cached instanceof DerivedRowValidator v && v.fits(mv, catalog)) {
            return v;
        }
        DerivedRowValidator compiled = DerivedRowValidator.compile(mv, catalog);
        slot.set(compiled);
        return compiled;
    }
}
