package io.derive.engine.exec.ddl;

import io.derive.engine.api.DeriveException;
import io.derive.engine.api.Result;
import io.derive.engine.api.StatementKind;
import io.derive.engine.exec.context.ExecutionContext;
import io.derive.engine.exec.write.IndexShapes;
import io.derive.engine.plan.ExpressionBinder;
import io.derive.engine.plan.QueryBinder;
import io.derive.engine.schema.Catalog;
import io.derive.engine.schema.IndexSchema;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.spi.HostedTable;
import io.derive.engine.spi.IndexShape;
import io.derive.engine.spi.RowCursor;
import io.derive.engine.sql.ast.Statement;
import io.derive.engine.txn.Transaction;
import io.derive.engine.types.Collation;
import io.derive.engine.types.ValueOrder;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code create [unique] index} and {@code drop index}. The host's index set is not transactional
 * by itself, so each change is paired with its undo: a created index is dropped again when the
 * statement or transaction rolls back; a dropped one is removed from the host at once and
 * rebuilt (from committed rows, while the connection rebuilds its pending entries) on rollback.
 */
public final class IndexDdl {
    private static final Object[] WHOLE_INDEX = new Object[0];

    private final ExecutionContext context;

    public IndexDdl(ExecutionContext context) {
        this.context = context;
    }

    /** A table and one of its indexes. */
    private record Found(TableSchema table, IndexSchema index) {
    }

    public Result create(Statement.CreateIndex create) {
        Transaction txn = context.transaction();
        String schema = DdlExecutor.schemaName(create.name());
        String name = create.name().name();
        if (find(schema, name).isPresent()) {
            if (create.ifNotExists()) {
                return Result.empty(StatementKind.DDL);
            }
            throw create.name().span().error(DeriveException.DUPLICATE_OBJECT, "index " + name + " already exists");
        }
        if (txn.catalog().table(schema, name).isPresent()) {
            throw create.name().span().error(DeriveException.DUPLICATE_OBJECT, "there is already a table named " + name);
        }
        TableSchema table = QueryBinder.resolveTable(txn.catalog(), create.table().schema(), create.table().name(),
                create.table().span().line(), create.table().span().column());
        if (!table.schema().equalsIgnoreCase(schema) && create.name().schema() != null) {
            throw create.name().span().error(DeriveException.INVALID_DEFINITION, "index " + name + " must be in the schema of table "
                    + table.qualifiedName());
        }
        List<IndexSchema.IndexColumn> columns = new ArrayList<>();
        for (Statement.IndexedColumn c : create.columns()) {
            int column = table.columnIndex(c.name()).orElseThrow(() -> c.span().error(DeriveException.UNDEFINED_OBJECT, 
                    "no such column: " + c.name()));
            Collation collation = table.columns().get(column).collation();
            if (c.collation() != null) {
                try {
                    collation = Collation.named(c.collation());
                } catch (DeriveException e) {
                    throw e.at(c.span().line(), c.span().column());
                }
            }
            columns.add(new IndexSchema.IndexColumn(column, collation, c.descending()));
        }
        if (create.where() != null) {
            ExpressionBinder.bind(create.where(), IndexShapes.scopeOf(table)); // a missing column fails now
        }
        IndexSchema index = new IndexSchema(name, columns, create.unique(), create.where(), false, create.span().text(context.sql()));
        txn.beginSchemaChange();
        HostedTable storage = table.storage();
        context.services().buildIndex(table, IndexShapes.of(table, index));
        txn.onRollback(() -> storage.dropIndex(name));
        // A replayed definition held when it was stored; checking it again would read every entry.
        if (index.unique() && !context.services().rehydrating()) {
            requireUnique(table, index);
        }
        List<IndexSchema> indexes = new ArrayList<>(table.constraints().indexes());
        indexes.add(index);
        txn.changeCatalog(txn.catalog().with(table.withConstraints(table.constraints().withIndexes(indexes))));
        return Result.empty(StatementKind.DDL);
    }

    public Result drop(Statement.DropIndex drop) {
        Transaction txn = context.transaction();
        Optional<Found> found = find(drop.name().schema(), drop.name().name());
        if (found.isEmpty()) {
            if (drop.ifExists()) {
                return Result.empty(StatementKind.DDL);
            }
            throw drop.name().span().error(DeriveException.UNDEFINED_OBJECT, "no such index: " + drop.name());
        }
        TableSchema table = found.get().table();
        IndexSchema index = found.get().index();
        if (index.constraint()) {
            throw drop.name().span().error(DeriveException.INVALID_DEFINITION, "index " + index.name()
                    + " associated with UNIQUE or PRIMARY KEY constraint cannot be dropped");
        }
        Optional<TableSchema> seeking = SupportingIndexes.neededBy(txn.catalog(), table, index);
        if (seeking.isPresent() && index.name().toLowerCase(java.util.Locale.ROOT).startsWith(SupportingIndexes.PREFIX)) {
            throw drop.name().span().error(DeriveException.INVALID_DEFINITION, "cannot drop index " + index.name()
                    + ": materialized view '" + seeking.get().qualifiedName() + "' finds rows by it; it goes when no"
                    + " materialized view needs it");
        }
        txn.beginSchemaChange();
        HostedTable storage = table.storage();
        IndexShape shape = IndexShapes.of(table, index);
        storage.dropIndex(index.name());
        txn.onRollback(() -> storage.createIndex(shape));
        List<IndexSchema> indexes = new ArrayList<>(table.constraints().indexes());
        indexes.remove(index);
        TableSchema after = table.withConstraints(table.constraints().withIndexes(indexes));
        txn.changeCatalog(txn.catalog().with(after));
        if (!txn.catalog().dependentsOf(after).isEmpty()) {
            // Maintenance plans may seek by the dropped index: the MVs seeking by its columns get
            // their own (SupportingIndexes), and every MV over the table is planned again.
            if (seeking.isPresent()) {
                for (TableSchema mv : txn.catalog().dependentsOf(after)) {
                    SupportingIndexes.ensure(txn, mv.name(), after, mv.derivation().maintenance().seekColumns(after.key()));
                }
            }
            TableSchema current = txn.catalog().tableByKey(after.key()).orElse(after);
            txn.changeCatalog(context.services().materializedViews().sourceChanged(context, txn.catalog(), current, true, -1));
        }
        return Result.empty(StatementKind.DDL);
    }

    /** {@code UNIQUE constraint failed: t.x} when two rows the new index holds share a key without NULLs. */
    void requireUnique(TableSchema table, IndexSchema index) {
        Object[] previous = null;
        try (RowCursor rows = context.transaction().connection(table).scanIndex(index.name(), WHOLE_INDEX)) {
            while (rows.hasNext()) {
                Object[] row = rows.next();
                if (previous != null && sameKey(index, previous, row)) {
                    StringBuilder columns = new StringBuilder();
                    for (IndexSchema.IndexColumn c : index.columns()) {
                        columns.append(columns.isEmpty() ? "" : ", ").append(table.columnLabel(c.column()));
                    }
                    throw new DeriveException(DeriveException.CONSTRAINT, "UNIQUE constraint failed: " + columns);
                }
                previous = row;
            }
        }
    }

    private static boolean sameKey(IndexSchema index, Object[] a, Object[] b) {
        for (IndexSchema.IndexColumn c : index.columns()) {
            Object x = a[c.column()];
            Object y = b[c.column()];
            if (x == null || y == null || ValueOrder.compare(x, y, c.collation()) != 0) {
                return false;
            }
        }
        return true;
    }

    private Optional<Found> find(String schema, String name) {
        return find(context.transaction().catalog(), schema, name);
    }

    /** True when the schema has an index of that name (compared case-insensitively). */
    static boolean exists(Catalog catalog, String schema, String name) {
        return find(catalog, schema, name).isPresent();
    }

    /** The index of that name in a schema ({@code schema} null: any). */
    private static Optional<Found> find(Catalog catalog, String schema, String name) {
        for (TableSchema t : catalog.tables()) {
            if (schema != null && !t.schema().equalsIgnoreCase(schema)) {
                continue;
            }
            for (IndexSchema index : t.constraints().indexes()) {
                if (index.name().equalsIgnoreCase(name)) {
                    return Optional.of(new Found(t, index));
                }
            }
        }
        return Optional.empty();
    }
}
