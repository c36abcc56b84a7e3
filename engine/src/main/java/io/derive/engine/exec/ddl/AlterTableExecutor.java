package io.derive.engine.exec.ddl;

import io.derive.engine.api.DeriveException;
import io.derive.engine.api.Result;
import io.derive.engine.api.StatementKind;
import io.derive.engine.exec.context.ExecutionContext;
import io.derive.engine.plan.QueryBinder;
import io.derive.engine.schema.Catalog;
import io.derive.engine.schema.CheckConstraint;
import io.derive.engine.schema.ColumnMentions;
import io.derive.engine.schema.ColumnSchema;
import io.derive.engine.schema.ForeignKey;
import io.derive.engine.schema.IndexSchema;
import io.derive.engine.schema.TableConstraints;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.spi.HostedTable;
import io.derive.engine.spi.RowCursor;
import io.derive.engine.spi.TableConnection;
import io.derive.engine.spi.TableShape;
import io.derive.engine.sql.ast.SourceSpan;
import io.derive.engine.sql.ast.Statement;
import io.derive.engine.txn.Transaction;
import io.derive.engine.types.Collation;
import io.derive.engine.types.SqlType;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * {@code alter table}: computes the altered {@link TableSchema} and how each stored row maps to
 * it, has the host {@linkplain HostedTable#reshape reshape} the storage and puts the result in
 * the transaction's working catalog. Like all DDL it is undone by rollback (and by
 * {@code rollback to} a savepoint taken before it): the old incarnation is untouched until the
 * transaction commits.
 */
public final class AlterTableExecutor {
    private static final Object[] WHOLE_TABLE = new Object[0];

    private final ExecutionContext context;

    public AlterTableExecutor(ExecutionContext context) {
        this.context = context;
    }

    /** The altered table and how a stored row becomes a row of it. */
    private record Change(TableSchema after, UnaryOperator<Object[]> rows) {
    }

    public Result alter(Statement.AlterTable alter) {
        Transaction txn = context.transaction();
        if (txn.catalog().table(alter.table().schema(), alter.table().name()).isEmpty()
                && txn.catalog().view(alter.table().schema(), alter.table().name()).isPresent()) {
            throw alter.table().span().error(DeriveException.INVALID_DEFINITION, "cannot alter view '" + alter.table()
                    + "': alter table applies to tables; " + (alter.action() instanceof Statement.TableTags
                    ? "use ALTER VIEW for tags" : "drop and recreate the view"));
        }
        TableSchema table = QueryBinder.resolveTable(txn.catalog(), alter.table().schema(), alter.table().name(),
                alter.table().span().line(), alter.table().span().column());
        Statement.AlterAction action = alter.action();
        refuseMaterializedViewVerbs(table, action);
        if (action instanceof Statement.TableTags tags) {
            txn.beginSchemaChange();
            txn.changeCatalog(txn.catalog().replacing(table, table.withTags(TagChanges.changed(table.tags(),
                    tags.change(), "table '" + table.qualifiedName() + "'"))));
            return Result.empty(StatementKind.DDL);
        }
        if (action instanceof Statement.SetMaintained set) {
            return context.services().materializedViews().attach(table, set.columnNames(), set.body(), set.bodySql(),
                    true, context, set.span());
        }
        if (action instanceof Statement.AttachStep step) {
            return context.services().materializedViews().attachStep(table, step, context);
        }
        if (action instanceof Statement.DropMaintained drop) {
            return context.services().materializedViews().detach(table, context, drop.span());
        }
        if (action instanceof Statement.AddConstraint || action instanceof Statement.DropConstraint) {
            if (table.isMaintained() && action instanceof Statement.AddConstraint add
                    && add.constraint() instanceof Statement.CheckDef check) {
                RowImageReferences.refuse(table, check); // the rule of the check itself, before that of the table
            }
            refuseOnMaterializedView(table, action);
            txn.beginSchemaChange();
            ConstraintAlteration constraints = new ConstraintAlteration(context);
            return action instanceof Statement.AddConstraint a ? constraints.add(table, a)
                    : constraints.drop(table, (Statement.DropConstraint) action);
        }
        refuseOnMaterializedView(table, action);
        txn.beginSchemaChange();
        if (action instanceof Statement.RenameTable r) {
            return renameTable(txn, table, r);
        }
        Change change;
        if (action instanceof Statement.AddColumn a) {
            change = addColumn(txn, table, a);
        } else if (action instanceof Statement.DropColumn d) {
            change = dropColumn(txn.catalog(), table, d);
        } else if (action instanceof Statement.RenameColumn r) {
            change = renameColumn(txn, table, r);
        } else if (action instanceof Statement.SetColumnNotNull n) {
            change = setNotNull(txn, table, n);
        } else if (action instanceof Statement.SetColumnType t) {
            change = setType(table, t);
        } else {
            change = setCollation(table, (Statement.SetColumnCollation) action);
        }
        TableSchema after = TableReshape.reshaped(txn, table, change.after(), change.rows(), action.span());
        Catalog next = txn.catalog().replacing(table, after);
        if (action instanceof Statement.RenameColumn r) {
            int column = visibleColumn(table, r.column(), r.span());
            next = RenamePropagation.columnRenamed(context, txn.catalog(), next, table, column, r.newName(), r.span());
        } else if (!next.dependentsOf(after).isEmpty()) {
            // Adding a column or changing nullability cannot change what a body reads, and a body
            // reading a dropped column no longer plans; a type or collation change may change the
            // results of the bodies reading that column.
            boolean compatible = action instanceof Statement.AddColumn || action instanceof Statement.SetColumnNotNull
                    || action instanceof Statement.DropColumn;
            int retyped = action instanceof Statement.SetColumnType t ? visibleColumn(table, t.column(), t.span())
                    : action instanceof Statement.SetColumnCollation c ? visibleColumn(table, c.column(), c.span()) : -1;
            next = context.services().materializedViews().sourceChanged(context, next, after, compatible, retyped);
        }
        txn.changeCatalog(next);
        return Result.empty(StatementKind.DDL);
    }

    /**
     * The tags of a maintained table are changed by {@code alter materialized view} (semantics
     * §2); {@code alter table} refuses them, changing nothing.
     */
    private static void refuseMaterializedViewVerbs(TableSchema table, Statement.AlterAction action) {
        if (action instanceof Statement.TableTags && table.isMaintained()) {
            throw action.span().error(DeriveException.INVALID_DEFINITION, "cannot change tags of '" + table.qualifiedName()
                    + "' with ALTER TABLE: use ALTER MATERIALIZED VIEW for tags");
        }
    }

    /** A maintained table's shape is its body's; it may only be renamed (semantics §2). */
    private static void refuseOnMaterializedView(TableSchema table, Statement.AlterAction action) {
        if (table.isMaintained() && !(action instanceof Statement.RenameTable)) {
            throw action.span().error(DeriveException.INVALID_DEFINITION, "cannot alter materialized view '" + table.qualifiedName()
                    + "': its shape is defined by the view body");
        }
    }

    // ---- rename table: catalog only, the rows stay where they are

    private Result renameTable(Transaction txn, TableSchema table, Statement.RenameTable rename) {
        Catalog catalog = txn.catalog();
        Optional<String> taken = ViewDdl.existingKind(catalog, table.schema(), rename.newName());
        if (taken.isPresent() && !rename.newName().equalsIgnoreCase(table.name())) {
            throw rename.span().error(DeriveException.DUPLICATE_OBJECT, "there is already another " + taken.get() + " named '"
                    + table.schema() + "." + rename.newName() + "'");
        }
        TableSchema after = rebuilt(table, rename.newName(), table.columns(), table.primaryKey(), table.storage(),
                table.constraints());
        Catalog next = catalog.replacing(table, after);
        // foreign keys and CHECKs of every table follow the rename, as in SQLite
        for (TableSchema child : catalog.tables()) {
            TableSchema current = child == table ? after : child;
            List<ForeignKey> keys = new ArrayList<>();
            boolean changed = false;
            for (ForeignKey fk : current.constraints().foreignKeys()) {
                if (references(fk, current, table)) {
                    keys.add(new ForeignKey(fk.name(), fk.columns(), fk.parentSchema(), rename.newName(),
                            fk.parentColumns(), fk.onDelete(), fk.onUpdate()));
                    changed = true;
                } else {
                    keys.add(fk);
                }
            }
            List<CheckConstraint> checks = new ArrayList<>();
            for (CheckConstraint check : current.constraints().checks()) {
                CheckConstraint renamed = check.readsTables() || child == table
                        ? CheckRename.renamed(check, table.schema(), table.name(), rename.newName(), child == table) : check;
                checks.add(renamed);
                changed |= renamed != check;
            }
            if (changed) {
                TableConstraints c = current.constraints();
                next = next.replacing(current, current.withConstraints(c.with(checks, keys, c.indexes())));
            }
        }
        // views and maintained tables that name the table follow it (semantics §5)
        next = RenamePropagation.tableRenamed(context, catalog, next, table, rename.newName(), rename.span());
        txn.changeCatalog(next);
        return Result.empty(StatementKind.DDL);
    }

    /** Whether {@code fk}, declared by {@code child}, references {@code parent}. */
    static boolean references(ForeignKey fk, TableSchema child, TableSchema parent) {
        return fk.parentTable().equalsIgnoreCase(parent.name())
                && (fk.parentSchema() == null ? child.schema().equalsIgnoreCase(parent.schema())
                        || parent.schema().equals(Catalog.MAIN)
                        : fk.parentSchema().equalsIgnoreCase(parent.schema()));
    }

    // ---- column changes: each returns the altered table and its row mapping

    private Change addColumn(Transaction txn, TableSchema table, Statement.AddColumn add) {
        Statement.ColumnDef def = add.column();
        if (table.columnIndex(def.name()).filter(i -> !table.columns().get(i).hidden()).isPresent()) {
            throw def.span().error(DeriveException.DUPLICATE_OBJECT, "duplicate column name: " + def.name());
        }
        if (def.primaryKey()) {
            throw def.span().error(DeriveException.INVALID_DEFINITION, "Cannot add a PRIMARY KEY column");
        }
        if (!def.constraints().isEmpty()) {
            throw def.span().error(DeriveException.FEATURE_NOT_SUPPORTED, "adding a column with UNIQUE, CHECK or REFERENCES"
                    + " constraints is not supported yet (column " + table.name() + "." + def.name() + ")");
        }
        ColumnSchema column = new DdlExecutor(context).column(table.name(), def, false);
        if (column.dynamicDefault() != null) {
            throw def.span().error(DeriveException.INVALID_DEFINITION, "Cannot add a column with non-constant default ("
                    + table.name() + "." + def.name() + ")");
        }
        if (column.notNull() && column.defaultValue() == null && !isEmpty(txn, table)) {
            throw def.span().error(DeriveException.CONSTRAINT, "Cannot add a NOT NULL column with default value NULL"
                    + " to non-empty table " + table.name());
        }
        List<ColumnSchema> columns = new ArrayList<>(table.columns());
        columns.add(column);
        Object fill = column.defaultValue();
        TableSchema after = rebuilt(table, table.name(), columns, table.primaryKey(), table.storage(), table.constraints());
        return new Change(after, row -> {
            Object[] next = java.util.Arrays.copyOf(row, row.length + 1);
            next[row.length] = fill;
            return next;
        });
    }

    private Change dropColumn(Catalog catalog, TableSchema table, Statement.DropColumn drop) {
        int index = visibleColumn(table, drop.column(), drop.span());
        String name = table.columns().get(index).name();
        for (TableShape.KeyPart part : table.primaryKey()) {
            if (part.column() == index) {
                throw drop.span().error(DeriveException.INVALID_DEFINITION, "cannot drop PRIMARY KEY column: " + name);
            }
        }
        if (table.columns().stream().filter(c -> !c.hidden()).count() == 1) {
            throw drop.span().error(DeriveException.INVALID_DEFINITION, "cannot drop column " + name
                    + ": no other columns exist in table " + table.name());
        }
        refuseDependentConstraints(catalog, table, index, "drop", drop.span());
        List<ColumnSchema> columns = new ArrayList<>(table.columns());
        columns.remove(index);
        List<TableShape.KeyPart> key = new ArrayList<>();
        for (TableShape.KeyPart part : table.primaryKey()) {
            key.add(new TableShape.KeyPart(shifted(part.column(), index), part.descending()));
        }
        TableSchema after = rebuilt(table, table.name(), columns, key, table.storage(), withoutColumn(table.constraints(), index));
        return new Change(after, row -> {
            Object[] next = new Object[row.length - 1];
            System.arraycopy(row, 0, next, 0, index);
            System.arraycopy(row, index + 1, next, index, row.length - index - 1);
            return next;
        });
    }

    private Change renameColumn(Transaction txn, TableSchema table, Statement.RenameColumn rename) {
        int index = visibleColumn(table, rename.column(), rename.span());
        Optional<Integer> clash = table.columnIndex(rename.newName());
        if (clash.isPresent() && clash.get() != index && !table.columns().get(clash.get()).hidden()) {
            throw rename.span().error(DeriveException.DUPLICATE_OBJECT, "duplicate column name: " + rename.newName());
        }
        String old = table.columns().get(index).name();
        Optional<String> refusal = ColumnRename.refusal(txn.catalog(), table, index);
        if (refusal.isPresent()) {
            throw rename.span().error(DeriveException.FEATURE_NOT_SUPPORTED, "cannot rename column " + old + ": " + refusal.get());
        }
        return new Change(ColumnRename.renamed(table, index, rename.newName()), UnaryOperator.identity());
    }

    private Change setNotNull(Transaction txn, TableSchema table, Statement.SetColumnNotNull change) {
        int index = visibleColumn(table, change.column(), change.span());
        ColumnSchema c = table.columns().get(index);
        if (!change.notNull() && table.primaryKey().stream().anyMatch(p -> p.column() == index)) {
            throw change.span().error(DeriveException.INVALID_DEFINITION, "cannot drop NOT NULL of PRIMARY KEY column "
                    + table.columnLabel(index));
        }
        if (change.notNull()) {
            TableConnection connection = txn.connection(table);
            try (RowCursor rows = connection.scan(WHOLE_TABLE, false)) {
                while (rows.hasNext()) {
                    if (rows.next()[index] == null) {
                        throw change.span().error(DeriveException.CONSTRAINT, "NOT NULL constraint failed: " + table.columnLabel(index)
                                + " (an existing row holds NULL)");
                    }
                }
            }
        }
        return withColumn(table, index, c.with(c.type(), c.collation(), change.notNull(), c.defaultValue()),
                UnaryOperator.identity());
    }

    private Change setType(TableSchema table, Statement.SetColumnType change) {
        int index = visibleColumn(table, change.column(), change.span());
        ColumnSchema c = table.columns().get(index);
        SqlType type = SqlType.fromName(change.typeName());
        if (type == null) {
            throw change.span().error(DeriveException.UNDEFINED_OBJECT, "unknown type '" + change.typeName() + "' for column "
                    + table.columnLabel(index));
        }
        String label = table.columnLabel(index);
        Object defaultValue;
        try {
            defaultValue = type.coerce(c.defaultValue(), label);
        } catch (DeriveException e) {
            throw e.at(change.span().line(), change.span().column());
        }
        SourceSpan at = change.span();
        return withColumn(table, index, c.with(type, c.collation(), c.notNull(), defaultValue),
                row -> {
                    Object[] next = row.clone();
                    try {
                        next[index] = type.coerce(row[index], label);
                    } catch (DeriveException e) {
                        throw e.at(at.line(), at.column());
                    }
                    return next;
                });
    }

    private Change setCollation(TableSchema table, Statement.SetColumnCollation change) {
        int index = visibleColumn(table, change.column(), change.span());
        ColumnSchema c = table.columns().get(index);
        Collation collation;
        try {
            collation = Collation.named(change.collation());
        } catch (DeriveException e) {
            throw e.at(change.span().line(), change.span().column());
        }
        return withColumn(table, index, c.with(c.type(), collation, c.notNull(), c.defaultValue()),
                UnaryOperator.identity());
    }

    // ---- applying a change

    private static Change withColumn(TableSchema table, int index, ColumnSchema column, UnaryOperator<Object[]> rows) {
        List<ColumnSchema> columns = new ArrayList<>(table.columns());
        columns.set(index, column);
        return new Change(rebuilt(table, table.name(), columns, table.primaryKey(), table.storage(), table.constraints()), rows);
    }

    private static TableSchema rebuilt(TableSchema t, String name, List<ColumnSchema> columns, List<TableShape.KeyPart> key,
                                       HostedTable storage, TableConstraints constraints) {
        return new TableSchema(t.schema(), name, columns, key, t.module(), storage, t.derivation(), constraints, null,
                t.tags());
    }

    /** Refuses dropping a column that an index, a foreign key or a CHECK still uses. */
    private static void refuseDependentConstraints(Catalog catalog, TableSchema table, int column, String verb,
                                                   SourceSpan at) {
        String name = table.columns().get(column).name();
        for (IndexSchema index : table.constraints().indexes()) {
            if (usesColumn(index, column) || ColumnMentions.mentions(index.where(), name)) {
                throw at.error(DeriveException.INVALID_DEFINITION, index.constraint()
                        ? "cannot " + verb + " UNIQUE column: " + name
                        : "cannot " + verb + " column " + name + ": index '" + index.name() + "' uses it");
            }
        }
        for (ForeignKey fk : table.constraints().foreignKeys()) {
            if (fk.columns().contains(column)) {
                throw at.error(DeriveException.INVALID_DEFINITION, "cannot " + verb + " column " + name
                        + ": a FOREIGN KEY constraint uses it");
            }
        }
        for (CheckConstraint check : table.constraints().checks()) {
            if (ColumnMentions.mentions(check.condition(), name)) {
                throw at.error(DeriveException.INVALID_DEFINITION, "cannot " + verb + " column " + name
                        + ": CHECK constraint '" + check.label() + "' uses it");
            }
        }
        for (TableSchema child : catalog.tables()) {
            for (ForeignKey fk : child.constraints().foreignKeys()) {
                if (references(fk, child, table) && fk.parentColumns().stream().anyMatch(name::equalsIgnoreCase)) {
                    throw at.error(DeriveException.INVALID_DEFINITION, "cannot " + verb + " column " + name
                            + ": a FOREIGN KEY of table '" + child.name() + "' references it");
                }
            }
        }
    }

    private static boolean usesColumn(IndexSchema index, int column) {
        return index.columns().stream().anyMatch(c -> c.column() == column);
    }

    /** Constraints after removing column {@code removed}, which none of them uses: positions after it move down. */
    private static TableConstraints withoutColumn(TableConstraints c, int removed) {
        List<IndexSchema> indexes = new ArrayList<>();
        for (IndexSchema i : c.indexes()) {
            List<IndexSchema.IndexColumn> columns = new ArrayList<>();
            for (IndexSchema.IndexColumn ic : i.columns()) {
                columns.add(new IndexSchema.IndexColumn(shifted(ic.column(), removed), ic.collation(), ic.descending()));
            }
            indexes.add(i.withColumns(columns));
        }
        List<ForeignKey> keys = new ArrayList<>();
        for (ForeignKey fk : c.foreignKeys()) {
            keys.add(new ForeignKey(fk.name(), fk.columns().stream().map(p -> shifted(p, removed)).toList(),
                    fk.parentSchema(), fk.parentTable(), fk.parentColumns(), fk.onDelete(), fk.onUpdate()));
        }
        return c.with(c.checks(), keys, indexes);
    }

    private static int shifted(int position, int removed) {
        return position > removed ? position - 1 : position;
    }

    /** A declared column; the hidden rowid cannot be altered, so it is {@code no such column}. */
    private static int visibleColumn(TableSchema table, String name, SourceSpan at) {
        return table.columnIndex(name).filter(i -> !table.columns().get(i).hidden())
                .orElseThrow(() -> at.error(DeriveException.UNDEFINED_OBJECT, "no such column: " + name
                        + " in table " + table.name()));
    }

    private boolean isEmpty(Transaction txn, TableSchema table) {
        try (RowCursor rows = txn.connection(table).scan(WHOLE_TABLE, false)) {
            return !rows.hasNext();
        }
    }

}
