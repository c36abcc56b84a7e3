package io.derive.engine.mv;

import io.derive.engine.api.DeriveException;
import io.derive.engine.api.Result;
import io.derive.engine.exec.ExecutionContext;
import io.derive.engine.exec.MaterializedViewOperations;
import io.derive.engine.plan.OutputColumn;
import io.derive.engine.plan.PlanNode;
import io.derive.engine.plan.QueryBinder;
import io.derive.engine.schema.ColumnSchema;
import io.derive.engine.schema.Derivation;
import io.derive.engine.schema.MaterializedViewStatistics;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.spi.BackingHost;
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
import java.util.LinkedHashMap;
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
                    return Result.empty();
                }
                throw sited("Materialized view '" + existing.get().qualifiedName() + "' already exists", name,
                        DeriveException.DUPLICATE_OBJECT);
            }
            throw sited(existing.get().kindName() + " '" + existing.get().qualifiedName() + "' already exists", name,
                    DeriveException.DUPLICATE_OBJECT);
        }
        if (txn.catalog().view(schema, name.name()).isPresent()) {
            throw sited("view '" + schema + "." + name.name() + "' already exists", name, DeriveException.DUPLICATE_OBJECT);
        }
        String view = schema + "." + name.name();
        PlanNode plan = new QueryBinder(txn.catalog(), context.sql()).bind(create.body());
        BodyAnalysis body = BodyAnalysis.of(view, create.body(), plan);
        List<ColumnSchema> columns = backingColumns(view, create, body);
        String moduleName = create.host() == null ? context.services().defaultHost() : create.host().module();
        TableModule module;
        try {
            module = context.services().module(moduleName);
        } catch (DeriveException e) {
            throw create.host() == null ? e : e.at(create.host().span().line(), create.host().span().column());
        }
        txn.beginWrite();
        TableShape shape = TableSchema.shape(schema, name.name(), columns, body.key());
        HostedTable storage = module.create(shape, create.host() == null ? List.of() : create.host().arguments());
        if (storage.backingHost().isEmpty()) {
            storage.drop();
            throw sited("table module '" + moduleName + "' cannot host a materialized-view backing table", name,
                    DeriveException.FEATURE_NOT_SUPPORTED);
        }
        txn.onRollback(storage::drop);
        List<String> names = columns.stream().map(ColumnSchema::name).toList();
        PerRowProjection arm = new PerRowProjection(names, body.predicate(), body.outputs(), shape);
        // The stored body is parsed from its own text, so its spans point into bodySql.
        Map<String, String> tags = new LinkedHashMap<>();
        create.tags().forEach(t -> tags.put(t.key(), t.value()));
        Derivation derivation = new Derivation(create.bodySql(), Parser.parseQuery(create.bodySql()),
                Set.of(body.source().key()), arm,
                new MaterializedViewStatistics(), tags);
        TableSchema mv = new TableSchema(schema, name.name(), columns, body.key(), moduleName, storage, derivation);
        txn.changeCatalog(txn.catalog().with(mv));
        fill(mv, plan, context);
        return Result.empty();
    }

    @Override
    public Result refresh(Statement.RefreshMaterializedView refresh, ExecutionContext context) {
        QualifiedName name = refresh.name();
        TableSchema mv = context.transaction().catalog().table(name.schema(), name.name())
                .orElseThrow(() -> sited("no such materialized view: " + name, name, DeriveException.UNDEFINED_OBJECT));
        if (!mv.isMaintained()) {
            throw sited("'" + name + "' is a table, not a materialized view", name, DeriveException.INVALID_DEFINITION);
        }
        context.transaction().beginWrite();
        PlanNode plan = new QueryBinder(context.transaction().catalog(), mv.derivation().bodySql())
                .bind(mv.derivation().body());
        fill(mv, plan, context);
        return Result.empty();
    }

    @Override
    public String explainArm(Statement.CreateMaterializedView create, ExecutionContext context) {
        String view = (create.name().schema() == null ? "main" : create.name().schema()) + "." + create.name().name();
        PlanNode plan = new QueryBinder(context.transaction().catalog(), context.sql()).bind(create.body());
        BodyAnalysis.of(view, create.body(), plan);
        return PerRowProjection.ARM;
    }

    @Override
    public void afterRowChange(ExecutionContext context, TableSchema source, Object[] before, Object[] after) {
        Transaction txn = context.transaction();
        for (TableSchema mv : txn.catalog().dependentsOf(source)) {
            if (mv.derivation().maintenance() instanceof PerRowProjection arm) {
                List<MaintenanceOp> ops = arm.opsFor(before, after);
                if (!ops.isEmpty()) {
                    backingHost(mv).applyMaintenance(txn.connection(mv), ops);
                }
            }
        }
    }

    /**
     * Makes the backing's contents in this transaction exactly the body's rows, by a keyed diff
     * (so a refresh inside a transaction rolls back with it).
     */
    private void fill(TableSchema mv, PlanNode plan, ExecutionContext context) {
        List<Object[]> rows = new ArrayList<>();
        for (Object[] row : context.queries().readAll(plan)) {
            Object[] stored = new Object[row.length];
            for (int i = 0; i < row.length; i++) {
                stored[i] = mv.columns().get(i).type().coerce(row[i], mv.columnLabel(i));
            }
            rows.add(stored);
        }
        mv.derivation().statistics().bodyEvaluated();
        TableShape shape = mv.storage().shape();
        KeyOrder order = shape.keyOrder();
        TreeSet<Object[]> keys = new TreeSet<>(order);
        for (Object[] row : rows) {
            if (!keys.add(shape.keyOf(row))) {
                throw new DeriveException(DeriveException.CONSTRAINT, "materialized view '" + mv.qualifiedName()
                        + "' must be a set: its body produced duplicate rows for primary key");
            }
        }
        backingHost(mv).applyMaintenance(context.transaction().connection(mv), List.of(new MaintenanceOp.ReplaceAll(rows)));
    }

    private static BackingHost backingHost(TableSchema mv) {
        return mv.storage().backingHost().orElseThrow(() -> new DeriveException(DeriveException.INTERNAL,
                "the storage of materialized view '" + mv.qualifiedName() + "' lost its backing host"));
    }

    private static List<ColumnSchema> backingColumns(String view, Statement.CreateMaterializedView create, BodyAnalysis body) {
        List<OutputColumn> outputs = body.columns();
        List<String> declared = create.columnNames();
        if (!declared.isEmpty() && declared.size() != outputs.size()) {
            throw sited("materialized view '" + view + "' has " + declared.size() + " declared columns but body produces "
                    + outputs.size(), create.name(), DeriveException.INVALID_DEFINITION);
        }
        Set<Integer> keyColumns = new HashSet<>();
        body.key().forEach(k -> keyColumns.add(k.column()));
        Set<String> seen = new HashSet<>();
        List<ColumnSchema> columns = new ArrayList<>();
        for (int i = 0; i < outputs.size(); i++) {
            OutputColumn c = outputs.get(i);
            String name = declared.isEmpty() ? c.name() : declared.get(i);
            if (!seen.add(name.toLowerCase(Locale.ROOT))) {
                throw sited("materialized view '" + view + "' has duplicate column name: " + name
                        + " (alias the body output)", create.name(), DeriveException.DUPLICATE_OBJECT);
            }
            columns.add(new ColumnSchema(name, c.type(), c.collation(), c.notNull() || keyColumns.contains(i), null));
        }
        return columns;
    }

    private static DeriveException sited(String message, QualifiedName at, String code) {
        return new DeriveException(code, message, at.span().line(), at.span().column());
    }
}
