package io.derive.engine.mv;

import io.derive.engine.api.DeriveException;
import io.derive.engine.api.Result;
import io.derive.engine.api.Row;
import io.derive.engine.api.StatementKind;
import io.derive.engine.exec.context.ExecutionContext;
import io.derive.engine.exec.context.MaterializedViewOperations;
import io.derive.engine.exec.context.RunEvaluations;
import io.derive.engine.exec.expr.Parameters;
import io.derive.engine.exec.write.ConstraintChecker;
import io.derive.engine.exec.write.RowWriter;
import io.derive.engine.schema.ColumnSchema;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.schema.Tags;
import io.derive.engine.spi.KeyOrder;
import io.derive.engine.spi.KeyRange;
import io.derive.engine.spi.RowCursor;
import io.derive.engine.spi.TableConnection;
import io.derive.engine.spi.TableShape;
import io.derive.engine.sql.Parser;
import io.derive.engine.sql.ast.SourceSpan;
import io.derive.engine.sql.ast.Statement;
import io.derive.engine.sql.ast.Statement.ConflictAction;
import io.derive.engine.sql.ast.Statement.RowOperation;
import io.derive.engine.txn.LockMode;
import io.derive.engine.txn.Transaction;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A chunked attach run: a derivation attached to a large plain table (semantics §9, the
 * chunked form of {@code alter table t set maintained as …}), in steps that each run in a
 * transaction of their own, so that the table's writers and the sources' are held up for no
 * longer than a chunk:
 * <ul>
 *   <li>{@code attach start run 'r' maintained [(names)] as <select>} checks the derivation as
 *       {@code set maintained} does (cycle, column count, the declared shape against the body's,
 *       first mismatch reported; a plain table is never reshaped here) and takes the table's
 *       lease: the table {@code <table>__attach} of the table's key columns, tagged with the run,
 *       when it started, the open of the database that holds it and the derivation's text. Its one
 *       row, once a chunk committed, is the greatest key reconciled. A second run is refused while
 *       a run of this open holds the lease; a lease left by an earlier open passes to the new
 *       run, keeping its position when the derivation is the same.</li>
 *   <li>{@code attach continue run 'r' limit k} reconciles the next {@code k} rows of the body,
 *       evaluated once per run and open and kept in key order, with the table's rows of the same
 *       key range: a row the body lacks is deleted, a missing one inserted, a differing one
 *       updated, an identical one left alone. The writes are ordinary writes of the table (row
 *       locks, its CHECKs, NOT NULLs and foreign keys, the views reading it); a write that would
 *       collide with a UNIQUE value elsewhere in the table is left to the finish.</li>
 *   <li>{@code attach finish run 'r'} attaches the derivation as {@code set maintained} does: a
 *       keyed diff against a fresh evaluation (rewriting only what changed since the chunks),
 *       the derived rows checked against the declared constraints; then drops the lease.</li>
 *   <li>{@code attach cancel} drops the lease, whichever run holds it.</li>
 * </ul>
 * A failed or stopped run leaves the table plain, with no derivation; the chunks it committed
 * stay (their rows are what the body derived), and the lease keeps the position for a restart.
 */
final class AttachRun {
    static final String SUFFIX = "__attach";
    private static final String OF = MaterializedViewOperations.ATTACH_LEASE_OF;
    private static final String RUN = "attach_run";
    private static final String STARTED = "attach_started";
    private static final String OPEN = "attach_open";
    private static final String DEFINITION = "attach_definition";

    private final MaterializedViews views;
    private final TableSchema table;
    private final ExecutionContext context;
    private final SourceSpan at;
    private final RunEvaluations evaluations;

    AttachRun(MaterializedViews views, TableSchema table, ExecutionContext context, SourceSpan at) {
        this.views = views;
        this.table = table;
        this.context = context;
        this.at = at;
        this.evaluations = context.services().runEvaluations();
    }

    Result step(Statement.AttachStep step) {
        if (table.isMaintained() && step.step().phase() != Statement.RunStep.Phase.CANCEL) {
            throw error(DeriveException.INVALID_DEFINITION, "cannot attach a derivation in chunks to '" + table.qualifiedName()
                    + "': it is a maintained table already (swap its body with 'alter table " + table.qualifiedName()
                    + " set maintained as …')");
        }
        return switch (step.step().phase()) {
            case START -> start(step.step().run(), step.derivation(), step.definition());
            case CONTINUE -> advance(step.step().run(), step.step().limit());
            case FINISH -> finish(step.step().run());
            case CANCEL -> cancel();
        };
    }

    private Result start(String run, Statement.SetMaintained derivation, String definition) {
        Transaction txn = context.transaction();
        txn.beginSchemaChange();
        checkedShape(derivation);
        Optional<TableSchema> found = lease();
        if (found.isPresent() && !tag(found.get(), RUN).equals(run) && evaluations.open().equals(tag(found.get(), OPEN))) {
            throw error(DeriveException.OBJECT_IN_USE, "table '" + table.qualifiedName() + "' is being attached by run '"
                    + tag(found.get(), RUN) + "' since " + tag(found.get(), STARTED) + "; wait for it to end, or cancel it with"
                    + " 'alter table " + table.qualifiedName() + " attach cancel'");
        }
        TableSchema lease;
        boolean resumed = found.isPresent() && tag(found.get(), DEFINITION).equals(definition);
        if (resumed) {
            String started = tag(found.get(), RUN).equals(run) ? tag(found.get(), STARTED) : Instant.now().toString();
            lease = found.get().withTags(tags(run, started, definition));
            txn.changeCatalog(txn.catalog().replacing(found.get(), lease));
        } else {
            found.ifPresent(this::drop);
            lease = create(run, definition);
        }
        if (!tag(lease, RUN).equals(found.map(l -> tag(l, RUN)).orElse(""))) {
            txn.onCommit(() -> evaluations.forget(lease.qualifiedName()));
        }
        Object[] position = resumed ? position(lease) : null;
        List<String> names = List.of("run", "lease", "last_key", "resumed");
        return new Result(StatementKind.DDL, names, List.of(new Row(names, new Object[] {run, lease.qualifiedName(),
                position == null ? null : DriftAudit.tuple(position), resumed ? 1L : 0L})), 1);
    }

    private Result advance(String run, long limit) {
        Transaction txn = context.transaction();
        txn.beginWrite();
        TableSchema lease = leased(run);
        txn.lockTable(lease.storage(), LockMode.EXCLUSIVE);
        Statement.SetMaintained derivation = derivation(lease);
        checkedShape(derivation);
        List<Object[]> rows = evaluations.of(lease.qualifiedName(), run).orElseGet(() -> evaluate(lease, run, derivation)).rows();
        TableShape shape = table.storage().shape();
        KeyOrder order = shape.keyOrder();
        Object[] position = position(lease);
        int from = position == null ? 0 : RefreshRun.after(rows, shape, position);
        int to = (int) Math.min(rows.size(), from + limit);
        Object[] bound = to == rows.size() ? null : shape.keyOf(rows.get(to - 1));
        Reconcile counts = reconcile(rows.subList(from, to), position, bound);
        TableConnection leaseRows = txn.connection(lease);
        Object[] reached = to == 0 ? null : shape.keyOf(rows.get(to - 1));
        if (reached != null && (position == null || order.compare(position, reached) != 0)) {
            if (position != null) {
                leaseRows.delete(position);
            }
            leaseRows.put(reached);
        }
        List<String> names = List.of("written", "position", "expected", "last_key", "done", "inserted", "updated",
                "deleted", "unchanged", "deferred");
        Object[] values = {counts.inserted + counts.updated + counts.deleted, (long) to, (long) rows.size(),
                reached == null ? null : DriftAudit.tuple(reached), to == rows.size() ? 1L : 0L, counts.inserted,
                counts.updated, counts.deleted, counts.unchanged, counts.deferred};
        return new Result(StatementKind.DDL, names, List.of(new Row(names, values)), 1);
    }

    /** What one chunk did to the table's rows. */
    private static final class Reconcile {
        long inserted;
        long updated;
        long deleted;
        long unchanged;
        long deferred;
    }

    /**
     * Makes the table's rows with keys after {@code position} (null: from the first) up to
     * {@code bound} (null: to the last) the body's {@code derived} rows, a merge of both in key order.
     */
    private Reconcile reconcile(List<Object[]> derived, Object[] position, Object[] bound) {
        TableShape shape = table.storage().shape();
        KeyOrder order = shape.keyOrder();
        RowWriter writer = new RowWriter(context);
        ConstraintChecker checker = writer.checker(table);
        TableConnection connection = writer.connection(table);
        List<Object[]> stored = new ArrayList<>();
        // A range bounds the first key column in value order, which a descending key runs against.
        Object first = position == null ? null : position[0];
        Object last = bound == null ? null : bound[0];
        KeyRange range = order.descending(0) ? new KeyRange(new Object[0], last, true, first, true)
                : new KeyRange(new Object[0], first, true, last, true);
        try (RowCursor rows = connection.scan(range, false)) {
            while (rows.hasNext()) {
                Object[] row = rows.next();
                Object[] key = shape.keyOf(row);
                if ((position == null || order.compare(key, position) > 0) && (bound == null || order.compare(key, bound) <= 0)) {
                    stored.add(row);
                }
            }
        }
        Reconcile counts = new Reconcile();
        int i = 0;
        int j = 0;
        while (i < derived.size() || j < stored.size()) {
            int c = i == derived.size() ? 1 : j == stored.size() ? -1
                    : order.compare(shape.keyOf(derived.get(i)), shape.keyOf(stored.get(j)));
            if (c > 0) {
                writer.delete(table, stored.get(j++));
                counts.deleted++;
            } else if (c < 0) {
                Object[] row = checked(checker, RowOperation.INSERT, null, derived.get(i++));
                if (checker.conflicts(connection, row, null, ConflictAction.ABORT).isEmpty()) {
                    writer.insert(table, row);
                    counts.inserted++;
                } else {
                    counts.deferred++;
                }
            } else {
                Object[] before = stored.get(j++);
                Object[] after = derived.get(i++);
                if (Arrays.equals(before, after)) {
                    counts.unchanged++;
                    continue;
                }
                Object[] row = checked(checker, RowOperation.UPDATE, before, after);
                if (checker.conflicts(connection, row, shape.keyOf(before), ConflictAction.ABORT).isEmpty()) {
                    writer.update(table, before, row);
                    counts.updated++;
                } else {
                    counts.deferred++;
                }
            }
        }
        writer.finish();
        return counts;
    }

    /** A derived row as the table stores it, refused when it breaks a NOT NULL or CHECK of the table. */
    private Object[] checked(ConstraintChecker checker, RowOperation operation, Object[] before, Object[] row) {
        Object[] stored = checker.coerced(row);
        try {
            checker.checkNotNull(stored);
            checker.checkChecks(operation, before, stored, Parameters.none());
        } catch (DeriveException e) {
            throw error(e.code(), "cannot attach a derivation to '" + table.qualifiedName() + "': the derived row for key "
                    + MaterializedViews.keyText(table, stored) + " is refused: " + e.getMessage());
        }
        return stored;
    }

    private Result finish(String run) {
        Transaction txn = context.transaction();
        txn.beginSchemaChange();
        TableSchema lease = leased(run);
        Statement.SetMaintained derivation = derivation(lease);
        txn.onCommit(() -> evaluations.forget(lease.qualifiedName()));
        drop(lease);
        long changed = views.attached(table, derivation.columnNames(), derivation.body(), derivation.bodySql(), false,
                context, at);
        List<String> names = List.of("changed");
        return new Result(StatementKind.DDL, names, List.of(new Row(names, new Object[] {changed})), 1);
    }

    private Result cancel() {
        Transaction txn = context.transaction();
        txn.beginSchemaChange();
        TableSchema lease = lease().orElseThrow(() -> error(DeriveException.UNDEFINED_OBJECT,
                "table '" + table.qualifiedName() + "' has no attach run to cancel"));
        drop(lease);
        txn.onCommit(() -> evaluations.forget(lease.qualifiedName()));
        return Result.empty(StatementKind.DDL);
    }

    /** The derivation's checks and its shape against the table's declared one, which a run never reshapes. */
    private void checkedShape(Statement.SetMaintained derivation) {
        BodyAnalysis analysis = views.attachable(table, derivation.columnNames(), derivation.body(), derivation.bodySql(),
                context, at);
        Attachment.checkShape(table, analysis, derivation.columnNames(), at);
    }

    /** The derivation the lease was started with, parsed again from its text. */
    private Statement.SetMaintained derivation(TableSchema lease) {
        String alter = "alter table " + quoted(table.schema()) + "." + quoted(table.name()) + " set " + tag(lease, DEFINITION);
        return (Statement.SetMaintained) ((Statement.AlterTable) Parser.parseStatement(alter)).action();
    }

    private static String quoted(String identifier) {
        return "\"" + identifier.replace("\"", "\"\"") + "\"";
    }

    /** The table's lease, when it has one; a table of the lease's name that is not one is refused. */
    private Optional<TableSchema> lease() {
        Optional<TableSchema> found = context.transaction().catalog().table(table.schema(), table.name() + SUFFIX);
        if (found.isPresent() && !table.qualifiedName().equals(found.get().tags().values().get(OF))) {
            throw error(DeriveException.DUPLICATE_OBJECT, "cannot run a chunked attach to '" + table.qualifiedName()
                    + "': table '" + found.get().qualifiedName() + "' exists and is not its attach lease (rename or drop it)");
        }
        return found;
    }

    /** The lease of {@code run}, which must hold it. */
    private TableSchema leased(String run) {
        TableSchema lease = lease().orElseThrow(() -> error(DeriveException.UNDEFINED_OBJECT,
                "table '" + table.qualifiedName() + "' has no attach run '" + run + "' (start it with 'alter table "
                        + table.qualifiedName() + " attach start run ''" + run.replace("'", "''") + "'' maintained as …')"));
        if (!tag(lease, RUN).equals(run)) {
            throw error(DeriveException.OBJECT_IN_USE, "table '" + table.qualifiedName() + "' is being attached by run '"
                    + tag(lease, RUN) + "' since " + tag(lease, STARTED) + ", not by run '" + run + "'");
        }
        return lease;
    }

    /** The greatest key a chunk of the run reconciled; null before the first. */
    private Object[] position(TableSchema lease) {
        try (RowCursor row = context.transaction().connection(lease).scan(new Object[0], false)) {
            return row.hasNext() ? row.next() : null;
        }
    }

    private TableSchema create(String run, String definition) {
        Transaction txn = context.transaction();
        String name = table.name() + SUFFIX;
        List<ColumnSchema> columns = new ArrayList<>();
        List<TableShape.KeyPart> key = new ArrayList<>();
        for (TableShape.KeyPart part : table.primaryKey()) {
            ColumnSchema column = table.columns().get(part.column());
            key.add(new TableShape.KeyPart(columns.size(), part.descending()));
            columns.add(new ColumnSchema(column.name(), column.type(), column.collation(), true, null));
        }
        var storage = context.services().createStorage(context.services().module(table.module()),
                TableSchema.shape(table.schema(), name, columns, key), List.of());
        txn.onRollback(storage::drop);
        TableSchema lease = new TableSchema(table.schema(), name, columns, key, table.module(), storage, null,
                null, null, tags(run, Instant.now().toString(), definition));
        txn.changeCatalog(txn.catalog().with(lease));
        return lease;
    }

    private void drop(TableSchema lease) {
        context.transaction().changeCatalog(context.transaction().catalog().without(lease));
        context.transaction().onCommit(lease.storage()::drop);
    }

    private Tags tags(String run, String started, String definition) {
        Map<String, Object> tags = new LinkedHashMap<>();
        tags.put(OF, table.qualifiedName());
        tags.put(RUN, run);
        tags.put(STARTED, started);
        tags.put(OPEN, evaluations.open());
        tags.put(DEFINITION, definition);
        return new Tags(tags);
    }

    private static String tag(TableSchema lease, String key) {
        return String.valueOf(lease.tags().values().get(key));
    }

    /** The body's rows as the table stores them, in key order, kept for the rest of the run. */
    private RunEvaluations.Evaluation evaluate(TableSchema lease, String run, Statement.SetMaintained derivation) {
        TableShape shape = table.storage().shape();
        List<Object[]> rows = new ArrayList<>();
        var plan = views.attachable(table, derivation.columnNames(), derivation.body(), derivation.bodySql(), context, at)
                .plan();
        for (Object[] row : context.queries().readAll(plan)) {
            rows.add(MaterializedViews.stored(table, row));
        }
        RefreshRun.sortByKey(rows, shape, row -> error(DeriveException.CONSTRAINT, "cannot attach a derivation to '"
                + table.qualifiedName() + "': its body produced duplicate rows for primary key "
                + MaterializedViews.keyText(table, row)));
        RunEvaluations.Evaluation evaluation = new RunEvaluations.Evaluation(run, rows);
        evaluations.keep(lease.qualifiedName(), evaluation);
        return evaluation;
    }

    private DeriveException error(String state, String message) {
        return new DeriveException(state, message, at.line(), at.column());
    }
}
