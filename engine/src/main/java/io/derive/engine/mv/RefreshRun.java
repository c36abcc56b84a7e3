package io.derive.engine.mv;

import io.derive.engine.api.DeriveException;
import io.derive.engine.api.Result;
import io.derive.engine.api.Row;
import io.derive.engine.api.StatementKind;
import io.derive.engine.exec.context.ExecutionContext;
import io.derive.engine.exec.context.RunEvaluations;
import io.derive.engine.schema.ColumnSchema;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.schema.Tags;
import io.derive.engine.spi.KeyOrder;
import io.derive.engine.spi.RowCursor;
import io.derive.engine.spi.TableConnection;
import io.derive.engine.spi.TableShape;
import io.derive.engine.sql.ast.SourceSpan;
import io.derive.engine.sql.ast.Statement;
import io.derive.engine.txn.LockMode;
import io.derive.engine.txn.Transaction;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * A chunked refresh run of one materialized view (semantics §9), in steps that each run in a
 * transaction of their own, so that writers of the sources are never held up for longer than a
 * chunk (a job drives the steps, one chunk per transaction):
 * <ul>
 *   <li>{@code start run 'r'} takes the view's lease: the table {@code <view>__refresh}, the
 *       run's <em>shadow</em>, of the columns the refresh will publish and the view's key,
 *       tagged with the run, when it started and the open of the database that holds it. A
 *       second run is refused while the lease is held by a run of this open; a lease left by an
 *       earlier open (the process ended with the run unfinished) passes to the new run with the
 *       rows already written. The same run starting again resumes.</li>
 *   <li>{@code continue run 'r' limit k} writes the next {@code k} rows of the body into the
 *       shadow, after the greatest key it holds. The body is evaluated once per run and open of
 *       the database and kept in memory in key order; writes to the sources go on meanwhile, and
 *       the view keeps being maintained.</li>
 *   <li>{@code finish run 'r'}, holding the catalog exclusive: the view takes the shadow's
 *       storage and a keyed diff against a fresh evaluation makes it exactly its body, so what
 *       the sources became during the run is in it (the diff is made against the rows the run
 *       wrote, without reading the shadow back, when this open wrote them all; of a per-row view
 *       only the rows of the source keys written since the start are derived again:
 *       {@link WrittenKeysDiff}). Readers see the old contents until this commits, then the new
 *       ones at once. Where the view's row changes are read by something
 *       (a live view over it, a foreign key to it, a constraint on its rows), or the shadow no
 *       longer fits the body's shape, the shadow is dropped and the view refreshed in place.</li>
 *   <li>{@code cancel} drops the shadow and so the lease, whichever run holds it.</li>
 * </ul>
 * A step that fails changes nothing: a run stopped or failed between steps leaves the view as it
 * was (maintained, or stale with its old contents) and its shadow for a restart.
 */
final class RefreshRun {
    static final String SUFFIX = "__refresh";
    private static final String OF = io.derive.engine.exec.context.MaterializedViewOperations.REFRESH_SHADOW_OF;
    private static final String RUN = "refresh_run";
    private static final String STARTED = "refresh_started";
    private static final String OPEN = "refresh_open";

    private final MaterializedViews views;
    private final TableSchema mv;
    private final ExecutionContext context;
    private final SourceSpan at;
    private final RunEvaluations evaluations;

    RefreshRun(MaterializedViews views, TableSchema mv, ExecutionContext context, SourceSpan at) {
        this.views = views;
        this.mv = mv;
        this.context = context;
        this.at = at;
        this.evaluations = context.services().runEvaluations();
    }

    Result step(Statement.RunStep step) {
        return switch (step.phase()) {
            case START -> start(step.run());
            case CONTINUE -> advance(step.run(), step.limit());
            case FINISH -> finish(step.run());
            case CANCEL -> cancel();
        };
    }

    private Result start(String run) {
        Transaction txn = context.transaction();
        txn.beginSchemaChange();
        List<ColumnSchema> columns = MaterializedViews.refreshedColumns(mv, context, at);
        Optional<TableSchema> found = shadow();
        TableSchema shadow;
        boolean resumed = false;
        if (found.isPresent() && heldByLiveOtherRun(found.get(), run)) {
            throw error(DeriveException.OBJECT_IN_USE, "materialized view '" + mv.qualifiedName() + "' is being refreshed by run '"
                    + tag(found.get(), RUN) + "' since " + tag(found.get(), STARTED) + "; wait for it to end, or cancel it with"
                    + " 'refresh materialized view " + mv.qualifiedName() + " cancel'");
        }
        if (found.isPresent() && fits(found.get(), columns)) {
            String started = tag(found.get(), RUN).equals(run) ? tag(found.get(), STARTED) : Instant.now().toString();
            shadow = found.get().withTags(lease(run, started));
            txn.changeCatalog(txn.catalog().replacing(found.get(), shadow));
            resumed = true;
        } else {
            found.ifPresent(this::drop);
            shadow = create(run, columns);
        }
        if (!tag(shadow, RUN).equals(found.map(s -> tag(s, RUN)).orElse(""))) {
            txn.onCommit(() -> evaluations.forget(mv.qualifiedName()));
        }
        // Before the catalog lock goes: no writer of the sources is open, so the writes recorded
        // from here on are all that a later evaluation of the body can miss.
        txn.onCommit(() -> evaluations.recordWrites(mv.qualifiedName(), run));
        List<String> names = List.of("run", "shadow", "rows", "resumed");
        long rows = resumed ? shadow.storage().committedRowCount() : 0;
        return new Result(StatementKind.REFRESH, names, List.of(new Row(names,
                new Object[] {run, shadow.qualifiedName(), rows, resumed ? 1L : 0L})), 1);
    }

    private Result advance(String run, long limit) {
        Transaction txn = context.transaction();
        txn.beginWrite();
        TableSchema shadow = leased(run);
        txn.lockTable(shadow.storage(), LockMode.EXCLUSIVE);
        RunEvaluations.Evaluation evaluation = evaluations.of(mv.qualifiedName(), run).orElseGet(() -> evaluate(shadow, run));
        List<Object[]> rows = evaluation.rows();
        TableShape shape = shadow.storage().shape();
        Object[] last = evaluation.committed() >= 0 ? null : lastRow(shadow);
        int from = evaluation.committed() >= 0 ? evaluation.committed()
                : last == null ? 0 : after(rows, shape, shape.keyOf(last));
        int to = (int) Math.min(rows.size(), from + limit);
        boolean firstOnEmpty = evaluation.committed() < 0 && last == null;
        txn.onCommit(() -> evaluation.chunkCommitted(to, firstOnEmpty));
        // Every key after the shadow's greatest is absent from it, and only this run writes it (locked above).
        TableConnection connection = txn.connection(shadow);
        for (Object[] row : rows.subList(from, to)) {
            connection.put(row);
        }
        List<String> names = List.of("written", "position", "expected", "last_key", "done");
        Object[] values = {(long) (to - from), (long) to, (long) rows.size(),
                to == 0 ? null : DriftAudit.tuple(shape.keyOf(rows.get(to - 1))), to == rows.size() ? 1L : 0L};
        return new Result(StatementKind.REFRESH, names, List.of(new Row(names, values)), 1);
    }

    private Result finish(String run) {
        Transaction txn = context.transaction();
        txn.beginSchemaChange();
        TableSchema shadow = leased(run);
        txn.onCommit(() -> evaluations.forget(mv.qualifiedName()));
        boolean onto = MaterializedViews.movable(mv, context)
                && fits(shadow, MaterializedViews.refreshedColumns(mv, context, at));
        long changed;
        if (onto) {
            // When this open wrote the whole shadow, its rows are known: the diff reads none back.
            RunEvaluations.Evaluation known = evaluations.of(mv.qualifiedName(), run)
                    .filter(RunEvaluations.Evaluation::wroteAll).orElse(null);
            changed = views.refreshOnto(mv, shadow, known, context, at);
        } else {
            drop(shadow);
            changed = views.refreshInPlace(txn.catalog().table(mv.schema(), mv.name()).orElseThrow(), context, at);
        }
        List<String> names = List.of("changed", "swapped");
        return new Result(StatementKind.REFRESH, names, List.of(new Row(names, new Object[] {changed, onto ? 1L : 0L})), 1);
    }

    private Result cancel() {
        Transaction txn = context.transaction();
        txn.beginSchemaChange();
        TableSchema shadow = shadow().orElseThrow(() -> error(DeriveException.UNDEFINED_OBJECT,
                "materialized view '" + mv.qualifiedName() + "' has no refresh run to cancel"));
        drop(shadow);
        txn.onCommit(() -> evaluations.forget(mv.qualifiedName()));
        return Result.empty(StatementKind.REFRESH);
    }

    /** The view's shadow, when it has one; a table of the shadow's name that is not one is refused. */
    private Optional<TableSchema> shadow() {
        Optional<TableSchema> found = context.transaction().catalog().table(mv.schema(), mv.name() + SUFFIX);
        if (found.isPresent() && !mv.qualifiedName().equals(found.get().tags().values().get(OF))) {
            throw error(DeriveException.DUPLICATE_OBJECT, "cannot run a chunked refresh of materialized view '"
                    + mv.qualifiedName() + "': table '" + found.get().qualifiedName()
                    + "' exists and is not its refresh shadow (rename or drop it)");
        }
        return found;
    }

    /** The shadow of {@code run}, which must hold the lease. */
    private TableSchema leased(String run) {
        TableSchema shadow = shadow().orElseThrow(() -> error(DeriveException.UNDEFINED_OBJECT,
                "materialized view '" + mv.qualifiedName() + "' has no refresh run '" + run + "' (start it with 'refresh"
                        + " materialized view " + mv.qualifiedName() + " start run ''" + run.replace("'", "''") + "''')"));
        if (!tag(shadow, RUN).equals(run)) {
            throw error(DeriveException.OBJECT_IN_USE, "materialized view '" + mv.qualifiedName() + "' is being refreshed by run '"
                    + tag(shadow, RUN) + "' since " + tag(shadow, STARTED) + ", not by run '" + run + "'");
        }
        return shadow;
    }

    private boolean heldByLiveOtherRun(TableSchema shadow, String run) {
        return !tag(shadow, RUN).equals(run) && evaluations.open().equals(tag(shadow, OPEN));
    }

    private TableSchema create(String run, List<ColumnSchema> columns) {
        Transaction txn = context.transaction();
        String name = mv.name() + SUFFIX;
        var storage = context.services().createStorage(context.services().module(mv.module()),
                TableSchema.shape(mv.schema(), name, columns, mv.primaryKey()), List.of());
        txn.onRollback(storage::drop);
        TableSchema shadow = new TableSchema(mv.schema(), name, columns, mv.primaryKey(), mv.module(), storage, null,
                null, null, lease(run, Instant.now().toString()));
        txn.changeCatalog(txn.catalog().with(shadow));
        return shadow;
    }

    private void drop(TableSchema shadow) {
        context.transaction().changeCatalog(context.transaction().catalog().without(shadow));
        context.transaction().onCommit(shadow.storage()::drop);
    }

    private Tags lease(String run, String started) {
        Map<String, Object> tags = new LinkedHashMap<>();
        tags.put(OF, mv.qualifiedName());
        tags.put(RUN, run);
        tags.put(STARTED, started);
        tags.put(OPEN, evaluations.open());
        return new Tags(tags);
    }

    private static String tag(TableSchema shadow, String key) {
        return String.valueOf(shadow.tags().values().get(key));
    }

    /** Whether the shadow holds the columns (by name, type, collation, nullability) and key a refresh now publishes. */
    private boolean fits(TableSchema shadow, List<ColumnSchema> columns) {
        if (!shadow.primaryKey().equals(mv.primaryKey()) || shadow.columns().size() != columns.size()) {
            return false;
        }
        for (int i = 0; i < columns.size(); i++) {
            ColumnSchema a = shadow.columns().get(i);
            ColumnSchema b = columns.get(i);
            if (!a.name().equalsIgnoreCase(b.name()) || a.type() != b.type() || a.collation() != b.collation()
                    || a.notNull() != b.notNull()) {
                return false;
            }
        }
        return true;
    }

    /** The body's rows as the shadow stores them, in key order, kept for the rest of the run. */
    private RunEvaluations.Evaluation evaluate(TableSchema shadow, String run) {
        TableShape shape = shadow.storage().shape();
        List<Object[]> rows = new ArrayList<>();
        for (Object[] row : context.queries().readAll(MaterializedViews.bodyPlan(mv, context))) {
            rows.add(MaterializedViews.stored(shadow, row));
        }
        mv.derivation().statistics().bodyEvaluated();
        sortByKey(rows, shape, row -> new DeriveException(DeriveException.CONSTRAINT, "materialized view '"
                + mv.qualifiedName() + "' must be a set: its body produced duplicate rows for primary key "
                + MaterializedViews.keyText(mv, row)));
        var catalog = context.transaction().catalog();
        TableSchema source = mv.derivation().sources().size() == 1
                ? catalog.tableByKey(mv.derivation().sources().iterator().next()).orElse(null) : null;
        RunEvaluations.Evaluation evaluation = new RunEvaluations.Evaluation(run, rows,
                evaluations.writesOf(mv.qualifiedName(), run), source, mv.derivation().bodySql());
        evaluations.keep(mv.qualifiedName(), evaluation);
        return evaluation;
    }

    /**
     * The shadow's row of the greatest key, or null when it is empty: a run this open has no
     * committed chunk of continues after it (a descending scan, which a host may answer by
     * reading the whole shadow, so only once per run and open).
     */
    private Object[] lastRow(TableSchema shadow) {
        try (RowCursor last = context.transaction().connection(shadow).scan(new Object[0], true)) {
            return last.hasNext() ? last.next() : null;
        }
    }

    /**
     * Sorts a body's {@code rows} by {@code shape}'s key, as a run keeps its evaluation.
     *
     * @throws DeriveException {@code duplicate} of the second of two rows with one key
     */
    static void sortByKey(List<Object[]> rows, TableShape shape, Function<Object[], DeriveException> duplicate) {
        KeyOrder order = shape.keyOrder();
        rows.sort((a, b) -> order.compare(shape.keyOf(a), shape.keyOf(b)));
        for (int i = 1; i < rows.size(); i++) {
            if (order.compare(shape.keyOf(rows.get(i - 1)), shape.keyOf(rows.get(i))) == 0) {
                throw duplicate.apply(rows.get(i));
            }
        }
    }

    /** The position of the first of {@code rows} whose key is after {@code key}. */
    static int after(List<Object[]> rows, TableShape shape, Object[] key) {
        KeyOrder order = shape.keyOrder();
        int low = 0;
        int high = rows.size();
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (order.compare(shape.keyOf(rows.get(mid)), key) <= 0) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        return low;
    }

    private DeriveException error(String state, String message) {
        return new DeriveException(state, message, at.line(), at.column());
    }
}
