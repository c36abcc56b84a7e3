package io.derive.engine.exec.ddl;

import io.derive.engine.api.DeriveException;
import io.derive.engine.api.Result;
import io.derive.engine.api.StatementKind;
import io.derive.engine.exec.context.ExecutionContext;
import io.derive.engine.exec.context.MaterializedViewOperations;
import io.derive.engine.exec.expr.Evaluator;
import io.derive.engine.exec.expr.ExpressionCompiler;
import io.derive.engine.exec.expr.Parameters;
import io.derive.engine.exec.write.RowIdAllocator;
import io.derive.engine.plan.BoundExpr;
import io.derive.engine.plan.ExpressionBinder;
import io.derive.engine.plan.Scope;
import io.derive.engine.schema.Catalog;
import io.derive.engine.schema.ColumnSchema;
import io.derive.engine.schema.TableConstraints;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.schema.Tags;
import io.derive.engine.spi.HostedTable;
import io.derive.engine.spi.TableModule;
import io.derive.engine.spi.TableShape;
import io.derive.engine.sql.ast.QualifiedName;
import io.derive.engine.sql.ast.Statement;
import io.derive.engine.txn.Transaction;
import io.derive.engine.types.Collation;
import io.derive.engine.types.SqlType;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * {@code create table} and {@code drop}: changes the transaction's working catalog and leaves
 * to commit (or rollback) the release of storage, so DDL is transactional.
 */
public final class DdlExecutor {
    private final ExecutionContext context;

    public DdlExecutor(ExecutionContext context) {
        this.context = context;
    }

    public Result createTable(Statement.CreateTable create) {
        Transaction txn = context.transaction();
        String schema = schemaName(create.name());
        Optional<TableSchema> existing = txn.catalog().table(schema, create.name().name());
        if (existing.isEmpty() && txn.catalog().view(schema, create.name().name()).isPresent()) {
            if (create.ifNotExists()) {
                return Result.empty(StatementKind.DDL);
            }
            throw create.name().span().error(DeriveException.DUPLICATE_OBJECT, "view '" + schema + "." + create.name().name()
                    + "' already exists");
        }
        if (existing.isPresent()) {
            if (create.ifNotExists()) {
                return Result.empty(StatementKind.DDL);
            }
            throw create.name().span().error(DeriveException.DUPLICATE_OBJECT, existing.get().kindName() + " '"
                    + existing.get().qualifiedName() + "' already exists");
        }
        List<ColumnSchema> columns = new ArrayList<>();
        List<TableShape.KeyPart> key = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (Statement.ColumnDef def : create.columns()) {
            if (!names.add(def.name().toLowerCase(Locale.ROOT))) {
                throw def.span().error(DeriveException.DUPLICATE_OBJECT, "duplicate column name: " + def.name());
            }
            if (def.primaryKey()) {
                if (!key.isEmpty() || !create.primaryKey().isEmpty()) {
                    throw def.span().error(DeriveException.INVALID_DEFINITION, "table '" + create.name().name()
                            + "' has more than one primary key");
                }
                key.add(new TableShape.KeyPart(columns.size(), def.primaryKeyDescending()));
            }
            columns.add(column(create.name().name(), def, def.primaryKey()));
        }
        for (Statement.KeyColumn k : create.primaryKey()) {
            int index = indexOf(columns, k.name());
            if (index < 0) {
                throw k.span().error(DeriveException.UNDEFINED_OBJECT, "no such column: " + k.name());
            }
            ColumnSchema c = columns.get(index);
            columns.set(index, c.with(c.type(), c.collation(), true, c.defaultValue()));
            key.add(new TableShape.KeyPart(index, k.descending()));
        }
        if (key.isEmpty()) {
            // a bag, as in SQLite: a hidden integer row identity is the physical key
            key.add(new TableShape.KeyPart(columns.size(), false));
            columns.add(RowIdAllocator.hiddenColumn(names));
        }
        Statement.HostClause host = create.host();
        String moduleName = host == null ? context.services().defaultHost() : host.module();
        TableModule module = siteModule(moduleName, host);
        declareKeyCollation(module, host, create, columns, key);
        TableConstraints constraints = ConstraintDefinitions.of(create, columns, context.sql(),
                n -> IndexDdl.exists(txn.catalog(), schema, n));
        txn.beginSchemaChange();
        HostedTable storage = context.services().createStorage(module, TableSchema.shape(schema, create.name().name(),
                columns, key), host == null ? List.of() : host.arguments());
        txn.onRollback(storage::drop);
        TableSchema table = new TableSchema(schema, create.name().name(), columns, key, moduleName, storage, null,
                constraints, null, Tags.of(create.tags()));
        if (!context.services().rehydrating()) {
            ConstraintDefinitions.bindReadingChecks(table, txn.catalog().with(table), context.sql());
        }
        ConstraintDefinitions.createIndexes(context.services(), table);
        txn.changeCatalog(txn.catalog().with(table));
        return Result.empty(StatementKind.DDL);
    }

    public Result drop(Statement.Drop drop) {
        Transaction txn = context.transaction();
        Optional<TableSchema> found = txn.catalog().table(drop.name().schema(), drop.name().name());
        if (found.isEmpty()) {
            if (txn.catalog().view(drop.name().schema(), drop.name().name()).isPresent()) {
                throw drop.name().span().error(DeriveException.INVALID_DEFINITION, "'" + drop.name() + "' is a view, not a "
                        + drop.kind().sql() + ": use DROP VIEW");
            }
            if (drop.ifExists()) {
                return Result.empty(StatementKind.DDL);
            }
            String what = drop.kind() == Statement.ObjectKind.MATERIALIZED_VIEW ? "materialized view" : "table";
            throw drop.name().span().error(DeriveException.UNDEFINED_OBJECT, "no such " + what + ": " + drop.name());
        }
        TableSchema table = found.get();
        if (drop.kind() == Statement.ObjectKind.MATERIALIZED_VIEW && !table.isMaintained()) {
            throw drop.name().span().error(DeriveException.INVALID_DEFINITION, "'" + drop.name() + "' is a table, not a materialized view: use DROP TABLE");
        }
        List<TableSchema> dependents = txn.catalog().dependentsOf(table);
        if (!dependents.isEmpty()) {
            String reason = CheckReaders.readerThrough(txn.catalog(), table)
                    .orElse("materialized view '" + dependents.get(0).qualifiedName() + "' reads it");
            throw drop.name().span().error(DeriveException.INVALID_DEFINITION, "cannot drop " + table.kindName() + " '" + table.qualifiedName()
                    + "': " + reason);
        }
        // Only an MV is held back: a CHECK reading a plain table survives its drop and heals when
        // the table is re-created (semantics §6), as the scenarios of derived-row validation pin.
        Optional<String> check = table.isMaintained() ? CheckReaders.readerOf(txn.catalog(), table.key()) : Optional.empty();
        if (check.isPresent()) {
            throw drop.name().span().error(DeriveException.INVALID_DEFINITION, "cannot drop " + table.kindName() + " '" + table.qualifiedName()
                    + "': " + check.get());
        }
        txn.changeCatalog(txn.catalog().without(table));
        txn.onCommit(table.storage()::drop);
        if (table.isMaintained()) {
            SupportingIndexes.release(txn);
        }
        for (TableSchema run : List.copyOf(txn.catalog().tables())) {
            var tags = run.tags().values();
            if (table.qualifiedName().equals(tags.get(MaterializedViewOperations.REFRESH_SHADOW_OF))
                    || table.qualifiedName().equals(tags.get(MaterializedViewOperations.ATTACH_LEASE_OF))) {
                txn.changeCatalog(txn.catalog().without(run));
                txn.onCommit(run.storage()::drop);
            }
        }
        return Result.empty(StatementKind.DDL);
    }

    /** A text key column that declares no collation takes the one the host's arguments ask for ({@link TableModule#keyCollation}). */
    private static void declareKeyCollation(TableModule module, Statement.HostClause host, Statement.CreateTable create,
                                            List<ColumnSchema> columns, List<TableShape.KeyPart> key) {
        Optional<Collation> collation;
        try {
            collation = module.keyCollation(host == null ? List.of() : host.arguments());
        } catch (DeriveException e) {
            throw host == null ? e : e.at(host.span().line(), host.span().column());
        }
        if (collation.isEmpty()) {
            return;
        }
        for (TableShape.KeyPart part : key) {
            if (part.column() < create.columns().size() && create.columns().get(part.column()).collation() == null) {
                ColumnSchema c = columns.get(part.column());
                if (c.type() == SqlType.TEXT || c.type() == SqlType.ANY) {
                    columns.set(part.column(), c.with(c.type(), collation.get(), c.notNull(), c.defaultValue()));
                }
            }
        }
    }

    ColumnSchema column(String table, Statement.ColumnDef def, boolean primaryKey) {
        SqlType type = def.typeName() == null ? SqlType.ANY : SqlType.fromName(def.typeName());
        if (type == null) {
            throw def.span().error(DeriveException.UNDEFINED_OBJECT, "unknown type '" + def.typeName() + "' for column "
                    + table + "." + def.name());
        }
        Collation collation = Collation.BINARY;
        if (def.collation() != null) {
            try {
                collation = Collation.named(def.collation());
            } catch (DeriveException e) {
                throw e.at(def.span().line(), def.span().column());
            }
        }
        Object defaultValue = null;
        ColumnSchema.DynamicDefault dynamic = null;
        if (def.defaultValue() != null) {
            String label = table + "." + def.name();
            try {
                BoundExpr bound = ExpressionBinder.bind(def.defaultValue(), Scope.empty());
                Evaluator evaluator = ExpressionCompiler.compile(bound);
                if (bound.deterministic()) {
                    defaultValue = type.coerce(evaluator.eval(new Object[0], Parameters.none()), label);
                } else {
                    // current_timestamp, random(): SQLite takes these at each insert, not at create.
                    SqlType columnType = type;
                    dynamic = new ColumnSchema.DynamicDefault(def.defaultValue().span().text(context.sql()),
                            () -> columnType.coerce(evaluator.eval(new Object[0], Parameters.none()), label));
                    // One evaluation now reports a default the column cannot store at create, not at the first insert.
                    dynamic.evaluator().get();
                }
            } catch (DeriveException e) {
                throw e.at(def.defaultValue().span().line(), def.defaultValue().span().column());
            }
        }
        boolean notNull = def.notNull() || primaryKey
                || (context.pragmas().columnsDefaultToNotNull() && !def.nullDeclared());
        return new ColumnSchema(def.name(), type, collation, notNull, defaultValue, false, dynamic, def.notNullConflict());
    }

    private TableModule siteModule(String name, Statement.HostClause host) {
        try {
            return context.services().module(name);
        } catch (DeriveException e) {
            throw host == null ? e : e.at(host.span().line(), host.span().column());
        }
    }

    /** The schema a new object goes to: {@code main} unless {@code temp} is named. */
    public static String schemaName(QualifiedName name) {
        if (name.schema() == null || name.schema().equalsIgnoreCase(Catalog.MAIN)) {
            return Catalog.MAIN;
        }
        if (name.schema().equalsIgnoreCase(Catalog.TEMP)) {
            return Catalog.TEMP;
        }
        throw name.span().error(DeriveException.UNDEFINED_OBJECT, "unknown database " + name.schema());
    }

    private static int indexOf(List<ColumnSchema> columns, String name) {
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).name().equalsIgnoreCase(name)) {
                return i;
            }
        }
        return -1;
    }

}
