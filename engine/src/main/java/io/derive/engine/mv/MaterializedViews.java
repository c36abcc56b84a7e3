package io.derive.engine.mv;

import io.derive.engine.api.DeriveException;
import io.derive.engine.api.Result;
import io.derive.engine.api.StatementKind;
import io.derive.engine.exec.context.ExecutionContext;
import io.derive.engine.exec.context.MaterializedViewOperations;
import io.derive.engine.exec.context.RunEvaluations;
import io.derive.engine.exec.ddl.RowImageReferences;
import io.derive.engine.exec.write.IndexShapes;
import io.derive.engine.plan.OutputColumn;
import io.derive.engine.plan.PlanNode;
import io.derive.engine.plan.QueryBinder;
import io.derive.engine.schema.ColumnSchema;
import io.derive.engine.schema.Derivation;
import io.derive.engine.schema.IndexSchema;
import io.derive.engine.schema.MaterializedViewStatistics;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.schema.Tags;
import io.derive.engine.spi.BackingHost;
import io.derive.engine.spi.BackingRowChange;
import io.derive.engine.spi.HostedTable;
import io.derive.engine.spi.KeyOrder;
import io.derive.engine.spi.MaintenanceOp;
import io.derive.engine.spi.TableModule;
import io.derive.engine.spi.TableShape;
import io.derive.engine.sql.Parser;
import io.derive.engine.sql.ast.QualifiedName;
import io.derive.engine.sql.ast.Statement;
import io.derive.engine.txn.Transaction;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The materialized-view manager: registers MVs (gates, key, arm), fills and refreshes them from
 * their body, and maintains them per source row inside the writing transaction. Every backing
 * write goes through the host's {@link BackingHost} (MV-014).
 */
public final class MaterializedViews implements MaterializedViewOperations {

    @Override
    public Result create(Statement.CreateMaterializedView create, ExecutionContext context) {
        Transaction txn = context.transaction();
        QualifiedName name = create.name();
        String schema = name.schema() == null ? "main" : name.schema().toLowerCase(Locale.ROOT);
        Optional<TableSchema> existing = txn.catalog().table(schema, name.name());
        if (existing.isPresent()) {
            if (existing.get().isMaintained()) {
                if (create.ifNotExists()) {
                    return Result.empty(StatementKind.DDL);
                }
                throw name.span().error(DeriveException.DUPLICATE_OBJECT, "Materialized view '" + existing.get().qualifiedName() + "' already exists");
            }
            throw name.span().error(DeriveException.DUPLICATE_OBJECT, existing.get().kindName() + " '" + existing.get().qualifiedName() + "' already exists");
        }
        if (txn.catalog().view(schema, name.name()).isPresent()) {
            throw name.span().error(DeriveException.DUPLICATE_OBJECT, "view '" + schema + "." + name.name() + "' already exists");
        }
        String view = schema + "." + name.name();
        PlanNode plan = new QueryBinder(txn.catalog(), context.sql()).bind(create.body());
        BodyAnalysis body = analyze(view, create.body(), plan, context, null);
        List<ColumnSchema> columns = backingColumns(view, create, body);
        String moduleName = create.host() == null ? context.services().defaultHost() : create.host().module();
        TableModule module;
        try {
            module = context.services().module(moduleName);
        } catch (DeriveException e) {
            throw create.host() == null ? e : e.at(create.host().span().line(), create.host().span().column());
        }
        txn.beginSchemaChange();
        TableShape shape = TableSchema.shape(schema, name.name(), columns, body.key());
        HostedTable storage = module.create(shape, create.host() == null ? List.of() : create.host().arguments());
        if (storage.backingHost().isEmpty()) {
            storage.drop();
            throw name.span().error(DeriveException.FEATURE_NOT_SUPPORTED, "table module '" + moduleName + "' cannot host a materialized-view backing table");
        }
        txn.onRollback(storage::drop);
        List<String> names = columns.stream().map(ColumnSchema::name).toList();
        supportingIndexes(txn, name.name(), body);
        // The stored body is parsed from its own text, so its spans point into bodySql.
        Derivation derivation = new Derivation(create.bodySql(), Parser.parseQuery(create.bodySql()),
                body.sources().keySet(), arm(body, names, shape, create.bodySql(), txn.catalog()),
                new MaterializedViewStatistics());
        TableSchema mv = new TableSchema(schema, name.name(), columns, body.key(), moduleName, storage, derivation,
                null, null, Tags.of(create.tags()));
        txn.changeCatalog(txn.catalog().with(mv));
        cascade(context, mv, fill(mv, plan, context), true);
        return Result.empty(StatementKind.DDL);
    }

    private static BodyAnalysis analyze(String view, io.derive.engine.sql.ast.Select body, PlanNode plan,
                                        ExecutionContext context, List<TableShape.KeyPart> declaredKey) {
        return BodyAnalysis.of(view, body, plan, context.pragmas().nondeterministicSchema(),
                context.pragmas().rebuildRowThreshold(), declaredKey);
    }

    /**
     * The primary key {@code table} declares independently of a body, for {@link BodyAnalysis}:
     * a plain table's own key (none for a bag), and for a maintained table the key it was
     * attached under when that is not its body's provable key. A body swap or recompile of an
     * MV keyed by its body must keep that key, so it passes none.
     */
    static List<TableShape.KeyPart> declaredKey(TableSchema table) {
        if (!table.isMaintained()) {
            return table.columns().stream().anyMatch(ColumnSchema::hidden) ? null : table.primaryKey();
        }
        return MaintenanceArm.of(table).declaredKey() ? table.primaryKey() : null;
    }

    private static MaintenanceArm arm(BodyAnalysis body, List<String> names, TableShape shape, String bodySql,
                                      io.derive.engine.schema.Catalog catalog) {
        return switch (body.arm()) {
            case PER_ROW -> PerRowShape.arm(body.plan(), names, shape);
            case GROUP -> GroupShape.arm(body.plan(), names, shape);
            case JOIN, LATERAL -> KeyedShape.arm(body.join().orElseThrow(), bodySql, catalog, names, shape);
            case FULL_REBUILD -> new FullRebuild(names, body.declaredKey());
        };
    }

    @Override
    public Result refresh(Statement.RefreshMaterializedView refresh, ExecutionContext context) {
        QualifiedName name = refresh.name();
        TableSchema mv = materializedView(name, context);
        if (refresh.step() != null) {
            return new RefreshRun(this, mv, context, name.span()).step(refresh.step());
        }
        context.transaction().beginWrite();
        refreshInPlace(mv, context, name.span());
        return Result.empty(StatementKind.REFRESH);
    }

    /**
     * Makes the contents of {@code mv} its body's rows in this transaction, by a keyed diff of
     * its backing; a stale MV is first planned anew (only refresh clears staleness: the body must
     * plan again, with the backing's shape or a shifted one).
     *
     * @return the rows the diff changed
     */
    long refreshInPlace(TableSchema mv, ExecutionContext context, io.derive.engine.sql.ast.SourceSpan at) {
        long started = System.nanoTime();
        if (mv.derivation().stale()) {
            TableSchema stale = mv;
            TableSchema current = recompiled(stale, context.transaction().catalog(), context)
                    .orElseGet(() -> reshapedForRefresh(stale, context, at));
            context.transaction().changeCatalog(context.transaction().catalog().replacing(mv, current));
            mv = current;
        }
        List<BackingRowChange> changes = fill(mv, bodyPlan(mv, context), context);
        cascade(context, mv, changes, true);
        refreshed(mv, changes.size(), started, context.transaction());
        return changes.size();
    }

    /**
     * The columns {@code mv} publishes after a refresh: its own, or for a stale MV those its body
     * now derives ({@link BackingReshape}). Changes nothing.
     *
     * @throws DeriveException when the body of a stale MV no longer plans, or its shape cannot shift in place
     */
    static List<ColumnSchema> refreshedColumns(TableSchema mv, ExecutionContext context, io.derive.engine.sql.ast.SourceSpan at) {
        if (!mv.derivation().stale()) {
            return mv.columns();
        }
        BodyAnalysis body = replanned(mv, context, at);
        return sameShape(body, mv) ? BackingReshape.relaxed(mv, body).orElse(mv.columns())
                : BackingReshape.forRefresh(mv, body, at);
    }

    /**
     * Whether a refresh of {@code mv} may put it on other storage filled apart and then diffed
     * to the body: only when nothing reads the changes of its rows (a live MV over it, a foreign
     * key to it, a constraint declared on its derived rows), since those rows' changes from the
     * old contents are not computed.
     */
    static boolean movable(TableSchema mv, ExecutionContext context) {
        return !DerivedRowValidation.declaresConstraints(mv) && !referenced(context, mv)
                && context.transaction().catalog().dependentsOf(mv).stream().allMatch(d -> d.derivation().stale());
    }

    /**
     * Refreshes {@code mv} onto the storage of {@code filled}, a table of the columns
     * {@link #refreshedColumns} gives and the key of {@code mv} that holds rows near the body's:
     * the MV takes that storage (its indexes re-created on it, its old storage released at
     * commit), {@code filled} leaves the catalog, and a keyed diff makes the contents the body's.
     * Precondition: {@link #movable}, and the transaction holds the catalog exclusive.
     *
     * @param known the evaluation whose rows {@code filled} holds exactly, when it does, so that the
     *              diff reads none of them back, and derives afresh only the rows of the keys
     *              written since where it can ({@link WrittenKeysDiff}); null to read them
     * @return the rows the diff changed
     */
    long refreshOnto(TableSchema mv, TableSchema filled, RunEvaluations.Evaluation known, ExecutionContext context,
                     io.derive.engine.sql.ast.SourceSpan at) {
        long started = System.nanoTime();
        Transaction txn = context.transaction();
        io.derive.engine.schema.Catalog catalog = txn.catalog();
        TableSchema placed = new TableSchema(mv.schema(), mv.name(), filled.columns(), mv.primaryKey(), mv.module(),
                filled.storage(), mv.derivation(), mv.constraints(), null, mv.tags());
        if (mv.derivation().stale()) {
            placed = rearmed(placed, replanned(mv, context, at), catalog);
        }
        for (IndexSchema index : placed.constraints().indexes()) {
            filled.storage().createIndex(IndexShapes.of(placed, index));
            txn.onRollback(() -> filled.storage().dropIndex(index.name()));
        }
        txn.onCommit(mv.storage()::drop);
        txn.changeCatalog(catalog.without(filled).replacing(mv, placed));
        List<BackingRowChange> changes = known == null ? null : writtenKeysChanged(placed, known, context);
        if (changes == null) {
            changes = fill(placed, bodyPlan(placed, context), context, bodyRows -> { }, known == null ? null : known.rows());
        }
        cascade(context, placed, changes, true);
        refreshed(placed, changes.size(), started, txn);
        return changes.size();
    }

    /** {@link WrittenKeysDiff}'s changes applied to {@code placed}; null when it cannot tell them. */
    private static List<BackingRowChange> writtenKeysChanged(TableSchema placed, RunEvaluations.Evaluation known,
                                                             ExecutionContext context) {
        BackingWrites.lockWhole(context.transaction(), placed);
        return WrittenKeysDiff.changes(placed, known, context)
                .map(diff -> BackingWrites.apply(context, placed, List.<MaintenanceOp>copyOf(diff), false))
                .orElse(null);
    }

    /** Counts a refresh of {@code mv} that changed {@code rows} rows, and records how it ends with {@code txn}. */
    private static void refreshed(TableSchema mv, long rows, long startedNanos, Transaction txn) {
        MaterializedViewStatistics statistics = mv.derivation().statistics();
        statistics.refreshed(rows, System.nanoTime() - startedNanos);
        txn.onCommit(() -> statistics.refreshEnded(java.time.Instant.now(), "completed: " + rows + " rows changed"));
        txn.onRollback(() -> statistics.refreshEnded(java.time.Instant.now(), "rolled back"));
    }

    /**
     * Verifies in the statement's snapshot; a repair writes the drifted keys through the path
     * maintenance takes (locks, derived-row checks, consumers). Each key's lock is taken after
     * the snapshot was read: when another transaction committed a change to the key since, the
     * lock makes the statement run again on a new snapshot, so what is rewritten is re-checked
     * under the lock. A view whose maintenance locks nothing of it
     * ({@link BackingWrites#guardedBySourceLocks}) is locked whole instead, which waits for its
     * writers as a key's lock would.
     */
    @Override
    public Result verify(Statement.VerifyMaterializedView verify, ExecutionContext context) {
        TableSchema mv = materializedView(verify.name(), context);
        if (mv.derivation().stale()) {
            throw verify.name().span().error(DeriveException.INVALID_DEFINITION, "materialized view '" + mv.qualifiedName()
                    + "' is stale: its contents follow no body until a refresh, so there is nothing to verify");
        }
        AuditedKeys keys = verify.where() == null ? AuditedKeys.all(mv) : AuditedKeys.where(mv, verify.where(), context);
        if (verify.repair()) {
            context.transaction().beginWrite();
        }
        List<DriftAudit.Drift> drift = DriftAudit.find(context, mv, keys.body(mv, bodyPlan(mv, context)), keys);
        if (verify.repair() && !drift.isEmpty() && BackingWrites.guardedBySourceLocks(context.transaction().catalog(), mv)) {
            BackingWrites.lockWhole(context.transaction(), mv);
        }
        if (verify.repair()) {
            applyNow(context, mv, drift.stream().map(DriftAudit.Drift::repair).toList(), System.nanoTime());
        }
        context.services().verifyReports().record(DriftAudit.report(mv, drift, verify.repair(),
                verify.where() == null ? null : verify.where().span().text(context.sql())));
        return DriftAudit.result(drift);
    }

    @Override
    public Result rehydrate(Statement.RehydrateMaterializedView rehydrate, ExecutionContext context) {
        return PendingRefill.refill(this, rehydrate.name(), context);
    }

    static TableSchema materializedView(QualifiedName name, ExecutionContext context) {
        TableSchema mv = context.transaction().catalog().table(name.schema(), name.name())
                .orElseThrow(() -> name.span().error(DeriveException.UNDEFINED_OBJECT, "no such materialized view: " + name));
        if (!mv.isMaintained()) {
            throw name.span().error(DeriveException.INVALID_DEFINITION, "'" + name + "' is a table, not a materialized view");
        }
        return mv;
    }

    /**
     * A stale MV whose body plans again but publishes a shifted shape, on storage of that shape
     * ({@link BackingReshape}), with its maintenance planned anew.
     */
    private static TableSchema reshapedForRefresh(TableSchema mv, ExecutionContext context,
                                                  io.derive.engine.sql.ast.SourceSpan at) {
        BodyAnalysis body = replanned(mv, context, at);
        return rearmed(BackingReshape.reshaped(context.transaction(), mv, BackingReshape.forRefresh(mv, body, at), at),
                body, context.transaction().catalog());
    }

    /** The body of a stale {@code mv} planned against the current catalog. */
    private static BodyAnalysis replanned(TableSchema mv, ExecutionContext context, io.derive.engine.sql.ast.SourceSpan at) {
        try {
            PlanNode plan = new QueryBinder(context.transaction().catalog(), mv.derivation().bodySql())
                    .bind(mv.derivation().body());
            return analyze(mv.qualifiedName(), mv.derivation().body(), plan, context, declaredKey(mv));
        } catch (DeriveException noLongerPlans) {
            throw new DeriveException(DeriveException.INVALID_DEFINITION, "materialized view '" + mv.qualifiedName()
                    + "' is stale and its body no longer plans (" + noLongerPlans.getMessage().replaceFirst(
                    " at \\d+:\\d+$", "") + "): drop and recreate it", at.line(), at.column());
        }
    }

    /** {@code mv}, reshaped for {@code body}, with the maintenance of that body over its new shape. */
    private static TableSchema rearmed(TableSchema mv, BodyAnalysis body, io.derive.engine.schema.Catalog catalog) {
        TableShape shape = TableSchema.shape(mv.schema(), mv.name(), mv.columns(), mv.primaryKey());
        return mv.withDerivation(mv.derivation().recompiled(
                arm(body, mv.columnNames(), shape, mv.derivation().bodySql(), catalog)));
    }

    @Override
    public Result attach(TableSchema table, List<String> names, io.derive.engine.sql.ast.Select body, String bodySql,
                         boolean reshape, ExecutionContext context, io.derive.engine.sql.ast.SourceSpan at) {
        attached(table, names, body, bodySql, reshape, context, at);
        return Result.empty(StatementKind.DDL);
    }

    @Override
    public Result attachStep(TableSchema table, Statement.AttachStep step, ExecutionContext context) {
        return new AttachRun(this, table, context, step.span()).step(step);
    }

    /**
     * The checks of attaching {@code bodySql} to {@code table} that come before its shape's: a
     * table whose rows a CHECK reads as row images, a body that does not plan, a derivation
     * cycle, a column list of the wrong length.
     */
    BodyAnalysis attachable(TableSchema table, List<String> names, io.derive.engine.sql.ast.Select body, String bodySql,
                            ExecutionContext context, io.derive.engine.sql.ast.SourceSpan at) {
        RowImageReferences.refuse(table, at);
        Transaction txn = context.transaction();
        BodyAnalysis analysis;
        try {
            PlanNode plan = new QueryBinder(txn.catalog(), bodySql).bind(Parser.parseQuery(bodySql));
            analysis = analyze(table.qualifiedName(), body, plan, context, declaredKey(table));
        } catch (DeriveException e) {
            throw e.at(at.line(), at.column());
        }
        Attachment.refuseCycle(table, analysis, txn.catalog(), at);
        Attachment.checkNameCount(table, analysis, names, at);
        return analysis;
    }

    /** {@link #attach}, answering how many rows the reconciling diff changed. */
    long attached(TableSchema table, List<String> names, io.derive.engine.sql.ast.Select body, String bodySql,
                  boolean reshape, ExecutionContext context, io.derive.engine.sql.ast.SourceSpan at) {
        Transaction txn = context.transaction();
        txn.beginSchemaChange();
        BodyAnalysis analysis = attachable(table, names, body, bodySql, context, at);
        PlanNode plan = analysis.plan();
        TableSchema before = table;
        try {
            Attachment.checkShape(table, analysis, names, at);
        } catch (DeriveException mismatch) {
            if (!table.isMaintained() && !reshape) {
                throw mismatch;
            }
            // A new body keeps the table's key and column order; its tail may shift, and for a
            // maintained table its types too (a plain table's kept columns are its declaration;
            // a stale view's backing, refilled at reopen, is a maintained table's).
            List<ColumnSchema> columns = table.isMaintained() || context.services().refillingStale(table.qualifiedName())
                    ? BackingReshape.forSwap(table, analysis, names, at)
                    : BackingReshape.forAttach(table, analysis, names, at);
            table = BackingReshape.reshaped(txn, table, columns, at);
        }
        TableShape shape = TableSchema.shape(table.schema(), table.name(), table.columns(), table.primaryKey());
        List<String> columnNames = table.columnNames();
        supportingIndexes(txn, table.name(), analysis);
        MaterializedViewStatistics statistics = table.isMaintained() ? table.derivation().statistics()
                : new MaterializedViewStatistics();
        Derivation derivation = new Derivation(bodySql, Parser.parseQuery(bodySql), analysis.sources().keySet(),
                arm(analysis, columnNames, shape, bodySql, txn.catalog()), statistics)
                .withSchedule(table.isMaintained() ? table.derivation().schedule() : null);
        TableSchema maintained = table.withDerivation(derivation);
        io.derive.engine.schema.Catalog next = txn.catalog().replacing(table, maintained);
        if (table != before) {
            // The MVs reading it read a table of another shape now: recompiled when they still fit and
            // read no column whose type or collation changed, else stale.
            List<Integer> retyped = BackingReshape.retyped(before, maintained);
            if (retyped.isEmpty()) {
                next = sourceChanged(context, next, maintained, true, -1);
            }
            for (int column : retyped) {
                next = sourceChanged(context, next, maintained, false, column);
            }
        }
        txn.changeCatalog(next);
        // A replayed catalog needed each of its supporting indexes when it was stored; mid-replay,
        // the views not attached yet would look as if they needed none, and theirs would be rebuilt.
        if (!context.services().rehydrating()) {
            io.derive.engine.exec.ddl.SupportingIndexes.release(txn);
        }
        if (context.services().adopting(table.qualifiedName())) {
            return 0;
        }
        List<BackingRowChange> changes = fill(maintained, plan, context);
        cascade(context, maintained, changes, true);
        return changes.size();
    }

    @Override
    public Result detach(TableSchema table, ExecutionContext context, io.derive.engine.sql.ast.SourceSpan at) {
        if (!table.isMaintained()) {
            throw new DeriveException(DeriveException.INVALID_DEFINITION, "cannot drop maintained from '"
                    + table.qualifiedName() + "': it is not a maintained table", at.line(), at.column());
        }
        context.transaction().beginSchemaChange();
        context.transaction().changeCatalog(context.transaction().catalog().replacing(table, table.withDerivation(null)));
        io.derive.engine.exec.ddl.SupportingIndexes.release(context.transaction());
        return Result.empty(StatementKind.DDL);
    }

    /**
     * The indexes a 1:1 join body's lookups seek the driving table by, created where it has none,
     * before the arm is planned so that its lookup queries plan as seeks.
     */
    private static void supportingIndexes(Transaction txn, String view, BodyAnalysis body) {
        if (body.arm() == BodyAnalysis.Arm.JOIN) {
            KeyedShape.Parts parts = body.join().orElseThrow();
            io.derive.engine.exec.ddl.SupportingIndexes.ensure(txn, view, KeyedShape.driving(parts),
                    KeyedShape.referencingColumns(parts));
        }
    }

    @Override
    public WriteThroughRewrite writeThrough(Statement dml, TableSchema mv, ExecutionContext context) {
        WriteThrough rewrite = WriteThrough.of(mv, context.transaction().catalog(), dml.span());
        if (dml instanceof Statement.Insert insert) {
            return rewrite.insert(insert);
        }
        return dml instanceof Statement.Update update ? rewrite.update(update) : rewrite.delete((Statement.Delete) dml);
    }

    @Override
    public String explainArm(Statement.CreateMaterializedView create, ExecutionContext context) {
        String view = (create.name().schema() == null ? "main" : create.name().schema()) + "." + create.name().name();
        PlanNode plan = new QueryBinder(context.transaction().catalog(), context.sql()).bind(create.body());
        return switch (analyze(view, create.body(), plan, context, null).arm()) {
            case PER_ROW -> PerRowProjection.ARM;
            case GROUP -> GroupRecompute.ARM;
            case JOIN -> KeyedRecompute.ARM;
            case LATERAL -> KeyedRecompute.LATERAL_ARM;
            case FULL_REBUILD -> FullRebuild.ARM;
        };
    }

    @Override
    public io.derive.engine.schema.Catalog sourceChanged(ExecutionContext context, io.derive.engine.schema.Catalog catalog,
                                                         TableSchema source, boolean compatible, int retypedColumn) {
        io.derive.engine.schema.Catalog next = catalog;
        for (TableSchema dependent : catalog.dependentsOf(source)) {
            // An MV reading the source through another MV too may have been recompiled by the cascade below.
            TableSchema mv = next.table(dependent.schema(), dependent.name()).orElse(dependent);
            if (mv.derivation().stale()) {
                continue;
            }
            boolean unaffected = compatible
                    || retypedColumn >= 0 && !ColumnReads.reads(mv, next, source, retypedColumn);
            Optional<TableSchema> recompiled = unaffected ? recompiled(mv, next, context) : Optional.empty();
            if (recompiled.isEmpty()) {
                next = staleFrom(next, mv);
                continue;
            }
            next = next.replacing(mv, recompiled.get());
            if (!recompiled.get().columns().equals(mv.columns())) {
                // Its backing now publishes a column nullable: the MVs reading it see that as a compatible change.
                next = sourceChanged(context, next, recompiled.get(), true, -1);
            }
        }
        return next;
    }

    @Override
    public Derivation rebodied(TableSchema mv, String bodySql, io.derive.engine.schema.Catalog catalog) {
        io.derive.engine.sql.ast.Select body = Parser.parseQuery(bodySql);
        PlanNode plan = new QueryBinder(catalog, bodySql).bind(body);
        BodyAnalysis analysis = BodyAnalysis.of(mv.qualifiedName(), body, plan, true, 0, declaredKey(mv));
        if (!sameShape(analysis, mv)) {
            throw new DeriveException(DeriveException.INVALID_DEFINITION, "the rewritten body of materialized view '"
                    + mv.qualifiedName() + "' no longer fits its columns and key");
        }
        return mv.derivation().rebodied(bodySql, body, analysis.sources().keySet(),
                arm(analysis, mv.columnNames(), mv.storage().shape(), bodySql, catalog));
    }

    @Override
    public Map<String, UniqueProbe> uniqueProbes(ExecutionContext context, TableSchema table) {
        return CoveringStructures.probes(context.transaction(), table, context.pragmas().foreignKeys());
    }

    @Override
    public String covers(io.derive.engine.schema.Catalog catalog, TableSchema mv) {
        return CoveringStructures.covers(catalog, mv);
    }

    /** The catalog with the MV and every MV reading it, transitively, stale (MV-022). */
    private static io.derive.engine.schema.Catalog staleFrom(io.derive.engine.schema.Catalog catalog, TableSchema mv) {
        io.derive.engine.schema.Catalog next = catalog.replacing(mv, mv.withDerivation(mv.derivation().asStale()));
        for (TableSchema reader : catalog.dependentsOf(mv)) {
            if (!reader.derivation().stale()) {
                next = staleFrom(next, next.table(reader.schema(), reader.name()).orElse(reader));
            }
        }
        return next;
    }

    /**
     * {@code mv} with the maintenance of its body planned against {@code catalog}, when the body
     * plans with the backing's shape and key; empty otherwise (the MV must then go stale). Where
     * the body now derives nullable a column the backing has NOT NULL, the backing is reshaped in
     * place to publish it nullable ({@link BackingReshape#relaxed}).
     */
    private static Optional<TableSchema> recompiled(TableSchema mv, io.derive.engine.schema.Catalog catalog,
                                                    ExecutionContext context) {
        try {
            PlanNode plan = new QueryBinder(catalog, mv.derivation().bodySql()).bind(mv.derivation().body());
            BodyAnalysis body = analyze(mv.qualifiedName(), mv.derivation().body(), plan, context, declaredKey(mv));
            if (!sameShape(body, mv)) {
                return Optional.empty();
            }
            TableSchema placed = BackingReshape.relaxed(mv, body)
                    .map(columns -> BackingReshape.relaxedInPlace(context.transaction(), mv, columns)).orElse(mv);
            return Optional.of(placed.withDerivation(placed.derivation().recompiled(arm(body, placed.columnNames(),
                    placed.storage().shape(), placed.derivation().bodySql(), catalog))));
        } catch (DeriveException noLongerPlans) {
            return Optional.empty();
        }
    }

    private static boolean sameShape(BodyAnalysis body, TableSchema mv) {
        if (body.columns().size() != mv.columns().size() || !body.key().equals(mv.primaryKey())) {
            return false;
        }
        for (int i = 0; i < body.columns().size(); i++) {
            OutputColumn c = body.columns().get(i);
            if (c.type() != mv.columns().get(i).type() || c.collation() != mv.columns().get(i).collation()) {
                return false;
            }
        }
        return true;
    }

    /**
     * Each arm applies what it can at once (a per-row MV, an ordered join's driving rows) and
     * records the rest for the end of the statement; what it applies at once is passed on at once.
     * A stale MV's maintenance is detached.
     */
    @Override
    public void afterRowChange(ExecutionContext context, TableSchema source, Object[] before, Object[] after) {
        io.derive.engine.schema.Catalog catalog = context.transaction().catalog();
        RunEvaluations runs = context.services().runEvaluations();
        List<TableSchema> dependents = catalog.dependentsOf(source);
        // an indexed loop: this runs for every row a statement changes, and an iterator costs an allocation
        for (int i = 0; i < dependents.size(); i++) {
            TableSchema mv = dependents.get(i);
            if (runs.recording()) {
                runs.written(mv.qualifiedName(), source, before, after);
            }
            if (!mv.derivation().stale()) {
                long started = System.nanoTime();
                List<MaintenanceOp> ops = MaintenanceArm.of(mv).afterSourceChange(context, mv, source, before, after);
                applyNow(context, mv, ops, started, BackingWrites.guardedBySourceLocks(catalog, mv));
            }
        }
    }

    /**
     * The deferred work, in dependency order: an MV is maintained after every MV it reads, so its
     * producers' changes of this statement have reached it first (MV-005).
     */
    @Override
    public void endOfStatement(ExecutionContext context) {
        DeferredMaintenance work = context.work().existing(DeferredMaintenance.class);
        while (work != null && !work.isEmpty()) {
            TableSchema next = null;
            int depth = Integer.MAX_VALUE;
            for (TableSchema mv : work.pending()) {
                int d = depth(mv, context.transaction().catalog());
                if (d < depth) {
                    depth = d;
                    next = mv;
                }
            }
            TableSchema mv = context.transaction().catalog().table(next.schema(), next.name()).orElse(next);
            MaintenanceArm arm = MaintenanceArm.of(mv);
            GroupChanges changes = work.takeGroupChanges(mv);
            if (work.takeRebuild(mv)) {
                work.takeSlices(mv);
                if (changes != null) {
                    arm.forget(context, changes);
                }
                long started = System.nanoTime();
                List<BackingRowChange> rebuilt = fill(mv, bodyPlan(mv, context), context);
                mv.derivation().statistics().maintained(rebuilt.size(), System.nanoTime() - started);
                cascade(context, mv, rebuilt, false);
            } else {
                List<Object[]> slices = new ArrayList<>(work.takeSlices(mv));
                if (changes != null) {
                    long started = System.nanoTime();
                    GroupFastPath.Outcome outcome = arm.settle(context, changes);
                    applyNow(context, mv, outcome.ops(), started);
                    slices.addAll(outcome.recompute());
                }
                long started = System.nanoTime();
                applyNow(context, mv, arm.recompute(context, mv, slices), started);
            }
        }
    }

    /**
     * Applies an arm's ops to the backing of {@code mv}, records the rows changed and the time
     * since {@code started} (when the arm began to work them out), and passes the changes on.
     */
    private void applyNow(ExecutionContext context, TableSchema mv, List<MaintenanceOp> ops, long started) {
        applyNow(context, mv, ops, started, false);
    }

    /**
     * @param sourceLocksSuffice whether the writer's locks on the changed source rows already keep
     *                           other transactions off the rows {@code ops} touch: then no lock of
     *                           the view is taken
     */
    private void applyNow(ExecutionContext context, TableSchema mv, List<MaintenanceOp> ops, long started,
                          boolean sourceLocksSuffice) {
        List<BackingRowChange> changes = ops.isEmpty() ? List.of() : BackingWrites.apply(context, mv, ops, sourceLocksSuffice);
        mv.derivation().statistics().maintained(changes.size(), System.nanoTime() - started);
        if (changes.isEmpty()) {
            return;
        }
        if (sourceLocksSuffice) {
            // No foreign key references the view and no view reads it (BackingWrites.guardedBySourceLocks): the
            // cascade is the derived-row checks alone.
            DerivedRowValidation.validate(context, mv, changes, false);
        } else {
            cascade(context, mv, changes, false);
        }
    }

    /**
     * For each realized backing change of {@code mv}, in order (semantics §4): derived-row
     * validation against its declared constraints (MV-017: before the cascade; {@code bulk} for
     * the fill of create, attach and refresh, where nothing waits for commit), parent-side
     * foreign-key actions for the tables referencing it (MV-020), then the MVs that read it.
     */
    private void cascade(ExecutionContext context, TableSchema mv, List<BackingRowChange> changes, boolean bulk) {
        checkAndActOnReferences(context, mv, changes, bulk);
        if (context.transaction().catalog().dependentsOf(mv).isEmpty()) {
            return;
        }
        for (BackingRowChange change : changes) {
            afterRowChange(context, mv, change.before(), change.after());
        }
    }

    /** The part of {@link #cascade} before the MVs that read {@code mv}: derived-row validation, then parent-side FK actions. */
    static void checkAndActOnReferences(ExecutionContext context, TableSchema mv, List<BackingRowChange> changes,
                                                boolean bulk) {
        DerivedRowValidation.validate(context, mv, changes, bulk);
        if (referenced(context, mv)) {
            for (BackingRowChange change : changes) {
                if (change.before() != null) {
                    io.derive.engine.exec.write.ReferentialActions.afterParentChange(context, mv, change.before(), change.after());
                }
            }
        }
    }

    @Override
    public void validateAtCommit(ExecutionContext context, TableSchema mv, List<Object[]> rows) {
        DerivedRowValidation.validateAtCommit(context, mv, rows);
    }

    /** Whether some table declares a foreign key to this MV (then its row deletions and re-keys run FK actions). */
    private static boolean referenced(ExecutionContext context, TableSchema mv) {
        return context.pragmas().foreignKeys() && context.transaction().catalog().isReferenced(mv);
    }

    private static DeferredMaintenance deferred(ExecutionContext context) {
        return context.work().part(DeferredMaintenance.class, DeferredMaintenance::new);
    }

    /** 0 for an MV over plain tables, else one more than the deepest MV it reads. */
    private static int depth(TableSchema mv, io.derive.engine.schema.Catalog catalog) {
        int depth = 0;
        for (String source : mv.derivation().sources()) {
            Optional<TableSchema> t = catalog.tableByKey(source);
            if (t.isPresent() && t.get().isMaintained()) {
                depth = Math.max(depth, 1 + depth(t.get(), catalog));
            }
        }
        return depth;
    }

    static PlanNode bodyPlan(TableSchema mv, ExecutionContext context) {
        return new QueryBinder(context.transaction().catalog(), mv.derivation().bodySql()).bind(mv.derivation().body());
    }

    /** A body row of {@code mv} as its backing stores it, coerced to the columns' types. */
    static Object[] stored(TableSchema mv, Object[] row) {
        Object[] stored = new Object[row.length];
        for (int i = 0; i < row.length; i++) {
            stored[i] = mv.columns().get(i).type().coerce(row[i], mv.columnLabel(i));
        }
        return stored;
    }

    /**
     * Makes the backing's contents in this transaction exactly the body's rows, by a keyed diff
     * (so a refresh inside a transaction rolls back with it).
     */
    private List<BackingRowChange> fill(TableSchema mv, PlanNode plan, ExecutionContext context) {
        return fill(mv, plan, context, bodyRows -> { });
    }

    /** {@link #fill(TableSchema, PlanNode, ExecutionContext)}, telling {@code bodyRows} how many rows the body produced. */
    List<BackingRowChange> fill(TableSchema mv, PlanNode plan, ExecutionContext context,
                                java.util.function.LongConsumer bodyRows) {
        return fill(mv, plan, context, bodyRows, null);
    }

    /**
     * {@link #fill(TableSchema, PlanNode, ExecutionContext, java.util.function.LongConsumer)}; when
     * {@code known} is not null it is exactly the backing's rows, sorted by key, and the diff is made
     * against it, writing the changed rows as known changes without reading the backing.
     */
    private List<BackingRowChange> fill(TableSchema mv, PlanNode plan, ExecutionContext context,
                                        java.util.function.LongConsumer bodyRows, List<Object[]> known) {
        // The whole backing and the arm's own state are rewritten: no other writer may be working on them.
        BackingWrites.lockWhole(context.transaction(), mv);
        List<Object[]> rows = new ArrayList<>();
        for (Object[] row : context.queries().readAll(plan)) {
            rows.add(stored(mv, row));
        }
        mv.derivation().statistics().bodyEvaluated();
        MaintenanceArm.of(mv).beforeFill(context);
        TableShape shape = mv.storage().shape();
        KeyOrder order = shape.keyOrder();
        TreeSet<Object[]> keys = new TreeSet<>(order);
        for (Object[] row : rows) {
            if (!keys.add(shape.keyOf(row))) {
                throw new DeriveException(DeriveException.CONSTRAINT, "materialized view '" + mv.qualifiedName()
                        + "' must be a set: its body produced duplicate rows for primary key " + keyText(mv, row));
            }
        }
        bodyRows.accept(rows.size());
        return BackingWrites.apply(context, mv, known == null ? List.of(new MaintenanceOp.ReplaceAll(rows))
                : List.<MaintenanceOp>copyOf(io.derive.engine.spi.KeyedDiff.changes(shape, known, rows)), false);
    }

    /** {@code (g) = ('a')}: the key columns of {@code mv} and their values in {@code row}. */
    static String keyText(TableSchema mv, Object[] row) {
        List<String> columns = new ArrayList<>();
        List<String> values = new ArrayList<>();
        for (TableShape.KeyPart part : mv.primaryKey()) {
            columns.add(mv.columns().get(part.column()).name());
            Object value = row[part.column()];
            values.add(value == null ? "NULL" : value instanceof String text ? "'" + text.replace("'", "''") + "'"
                    : String.valueOf(value));
        }
        return "(" + String.join(", ", columns) + ") = (" + String.join(", ", values) + ")";
    }

    static BackingHost backingHost(TableSchema mv) {
        // no orElseThrow: its lambda would capture mv, an allocation for every row maintained
        Optional<BackingHost> host = mv.storage().backingHost();
        if (host.isEmpty()) {
            throw new DeriveException(DeriveException.INTERNAL,
                    "the storage of materialized view '" + mv.qualifiedName() + "' lost its backing host");
        }
        return host.get();
    }

    private static List<ColumnSchema> backingColumns(String view, Statement.CreateMaterializedView create, BodyAnalysis body) {
        List<OutputColumn> outputs = body.columns();
        List<String> declared = create.columnNames();
        if (!declared.isEmpty() && declared.size() != outputs.size()) {
            throw create.name().span().error(DeriveException.INVALID_DEFINITION, "materialized view '" + view + "' has " + declared.size() + " declared columns but body produces "
                    + outputs.size());
        }
        Set<Integer> keyColumns = new HashSet<>();
        body.key().forEach(k -> keyColumns.add(k.column()));
        Set<String> seen = new HashSet<>();
        List<ColumnSchema> columns = new ArrayList<>();
        for (int i = 0; i < outputs.size(); i++) {
            OutputColumn c = outputs.get(i);
            String name = declared.isEmpty() ? c.name() : declared.get(i);
            if (!seen.add(name.toLowerCase(Locale.ROOT))) {
                throw create.name().span().error(DeriveException.DUPLICATE_OBJECT, "materialized view '" + view + "' has duplicate column name: " + name
                        + " (alias the body output)");
            }
            columns.add(new ColumnSchema(name, c.type(), c.collation(), c.notNull() || keyColumns.contains(i), null));
        }
        return columns;
    }

}
