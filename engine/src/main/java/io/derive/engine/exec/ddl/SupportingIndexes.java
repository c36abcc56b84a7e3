package io.derive.engine.exec.ddl;

import io.derive.engine.exec.write.IndexShapes;
import io.derive.engine.schema.CanonicalDdl;
import io.derive.engine.schema.Catalog;
import io.derive.engine.schema.IndexSchema;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.spi.HostedTable;
import io.derive.engine.spi.IndexShape;
import io.derive.engine.spi.TableShape;
import io.derive.engine.txn.Transaction;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The indexes materialized views own on their sources, so that maintenance finds rows by a seek,
 * never a scan (semantics §4.3: a lookup-table write of a 1:1 join MV finds the driving rows that
 * reference the changed key by an index seek). What a maintenance seeks by is
 * {@link io.derive.engine.schema.Derivation.Maintenance#seekColumns}.
 *
 * <p>Design, the simplest that stays sound: such an index is an ordinary catalog index named
 * {@code derive_mv_<view>_<n>} — {@code schema()} lists it, the catalog persists and rehydrates
 * it, the host keeps it, a reshape of its table re-creates it like any other. It is created, in
 * the registering transaction, only where no index of the table (nor its primary key) leads
 * with the sought columns. Ownership is by need, not by name: an index named {@code derive_mv_…}
 * stays while some MV's maintenance seeks by its leading columns, and goes with the DDL that
 * ends the last such need (dropping the MV, swapping its body, {@code drop maintained}); while
 * needed, {@code drop index} refuses it. So it survives a rename of the MV, and MVs seeking by
 * the same columns share one.
 */
public final class SupportingIndexes {
    static final String PREFIX = "derive_mv_";

    private SupportingIndexes() {
    }

    /**
     * Gives {@code table} an index on each of {@code columnSets} that none of its indexes or its
     * primary key leads with, named for the MV {@code mvName}, inside the transaction (a rollback
     * removes it from the host and the catalog).
     */
    public static void ensure(Transaction txn, String mvName, TableSchema table, List<Set<Integer>> columnSets) {
        for (Set<Integer> columns : columnSets) {
            TableSchema current = txn.catalog().tableByKey(table.key()).orElse(table);
            if (columns.isEmpty() || servedByKey(current, columns)
                    || current.constraints().indexes().stream().anyMatch(i -> leads(current, i, columns))) {
                continue;
            }
            String name = freeName(txn.catalog(), current.schema(), mvName);
            List<IndexSchema.IndexColumn> indexed = new ArrayList<>();
            for (int column : columns) {
                indexed.add(new IndexSchema.IndexColumn(column, current.columns().get(column).collation(), false));
            }
            IndexSchema placeholder = new IndexSchema(name, indexed, false, null, false, "");
            IndexSchema index = new IndexSchema(name, indexed, false, null, false, CanonicalDdl.index(current, placeholder));
            txn.beginSchemaChange();
            HostedTable storage = current.storage();
            storage.createIndex(IndexShapes.of(current, index));
            txn.onRollback(() -> storage.dropIndex(name));
            List<IndexSchema> indexes = new ArrayList<>(current.constraints().indexes());
            indexes.add(index);
            txn.changeCatalog(txn.catalog().with(current.withConstraints(current.constraints().withIndexes(indexes))));
        }
    }

    /**
     * Drops, inside the transaction, every {@code derive_mv_…} index no MV of the working catalog
     * needs any longer (after the DDL that dropped, detached or re-bodied one).
     */
    public static void release(Transaction txn) {
        for (TableSchema table : txn.catalog().tables()) {
            TableSchema current = table;
            for (IndexSchema index : table.constraints().indexes()) {
                if (!index.name().toLowerCase(Locale.ROOT).startsWith(PREFIX)
                        || neededBy(txn.catalog(), current, index).isPresent()) {
                    continue;
                }
                HostedTable storage = current.storage();
                IndexShape shape = IndexShapes.of(current, index);
                storage.dropIndex(index.name());
                txn.onRollback(() -> storage.createIndex(shape));
                List<IndexSchema> indexes = new ArrayList<>(current.constraints().indexes());
                indexes.remove(index);
                current = current.withConstraints(current.constraints().withIndexes(indexes));
            }
            if (current != table) {
                txn.changeCatalog(txn.catalog().with(current));
            }
        }
    }

    /** The first MV whose maintenance seeks {@code table} by the leading columns of {@code index}. */
    static Optional<TableSchema> neededBy(Catalog catalog, TableSchema table, IndexSchema index) {
        for (TableSchema mv : catalog.tables()) {
            if (mv.isMaintained()) {
                for (Set<Integer> columns : mv.derivation().maintenance().seekColumns(table.key())) {
                    if (leads(table, index, columns)) {
                        return Optional.of(mv);
                    }
                }
            }
        }
        return Optional.empty();
    }

    /** Whether a full index's first columns are {@code columns} (in any order), each under the column's collation. */
    private static boolean leads(TableSchema table, IndexSchema index, Set<Integer> columns) {
        if (index.where() != null || index.columns().size() < columns.size()) {
            return false;
        }
        Set<Integer> leading = new HashSet<>();
        for (int i = 0; i < columns.size(); i++) {
            IndexSchema.IndexColumn c = index.columns().get(i);
            if (c.collation() != table.columns().get(c.column()).collation()) {
                return false;
            }
            leading.add(c.column());
        }
        return leading.equals(columns);
    }

    private static boolean servedByKey(TableSchema table, Set<Integer> columns) {
        if (table.primaryKey().size() < columns.size()) {
            return false;
        }
        Set<Integer> leading = new HashSet<>();
        for (TableShape.KeyPart part : table.primaryKey().subList(0, columns.size())) {
            leading.add(part.column());
        }
        return leading.equals(columns);
    }

    private static String freeName(Catalog catalog, String schema, String mvName) {
        String base = PREFIX + mvName.toLowerCase(Locale.ROOT) + "_";
        int n = 1;
        while (IndexDdl.exists(catalog, schema, base + n) || catalog.table(schema, base + n).isPresent()) {
            n++;
        }
        return base + n;
    }
}
