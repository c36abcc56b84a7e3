package io.derive.derby;

import io.derive.engine.spi.IndexShape;
import io.derive.engine.spi.RowCursor;
import io.derive.engine.spi.TableShape;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A secondary index of a {@link DerbyTable}, kept as a Derby table of its own whose primary key
 * is the entry: the encoded index key followed by the encoded physical key, so entries are
 * distinct and ordered by index key, then physical key, as {@link IndexShape} requires, under the
 * index's collations — which a Derby index on the typed columns could not honour (Derby has one
 * collation per database, and its UNIQUE index treats NULLs as equal). The second column holds
 * the encoded physical key, by which a scan joins back to the table's rows.
 */
final class DerbyIndex {
    private static final String ENTRY = "\"$entry\"";
    private static final String KEY = "\"$key\"";
    /** The columns of an index table, as {@link DerbyStore#reopen} checks them. */
    private static final Map<String, String> COLUMNS = columns();

    private final DerbyTable table;
    private final IndexShape shape;
    private final KeyCodec codec;
    private final String derbyName;
    private final String qualified;
    private final String insert;
    private final String delete;
    private final String scanAll;
    private final String scanPrefix;
    private final BeforeImages images = new BeforeImages();

    private DerbyIndex(DerbyTable table, IndexShape shape, String derbyName) {
        this.table = table;
        this.shape = shape;
        this.codec = new KeyCodec(shape.columns().stream().map(IndexShape.Column::collation).toList(),
                shape.columns().stream().map(IndexShape.Column::descending).toList());
        this.derbyName = derbyName;
        this.qualified = DerbySql.qualified(table.derbySchema(), derbyName);
        this.insert = "insert into " + qualified + " (" + ENTRY + ", " + KEY + ") values (?, ?)";
        this.delete = "delete from " + qualified + " where " + ENTRY + " = ?";
        String select = "select " + table.columnList("b") + ", i." + ENTRY + ", i." + KEY + " from " + qualified + " i join "
                + table.qualifiedDerbyName() + " b on b." + DerbySql.identifier(DerbyTable.keyColumn(table.shape()))
                + " = i." + KEY;
        this.scanAll = select + " order by i." + ENTRY;
        this.scanPrefix = select + " where i." + ENTRY + " >= ? and i." + ENTRY + " < ? order by i." + ENTRY;
    }

    /** Creates the (empty) Derby table of a new index. */
    static DerbyIndex create(DerbyTable table, IndexShape shape) {
        String name = table.module().store().createTable(table.derbySchema(), table.derbyName() + "$ix$" + shape.name(),
                ENTRY + " varchar(32672) for bit data not null primary key, " + KEY + " varchar(32672) for bit data not null");
        DerbyIndex index = new DerbyIndex(table, shape, name);
        // A table detached earlier may have had this name; this one is maintained.
        table.module().detachedIndexes().remove(index.qualified);
        return index;
    }

    /**
     * The index table {@code derbyName} of an earlier open, with its entries as they are; empty
     * when it is missing or was detached from its table (see {@link DetachedIndexes}).
     */
    static Optional<DerbyIndex> reopen(DerbyTable table, IndexShape shape, String derbyName) {
        DerbyIndex index = new DerbyIndex(table, shape, derbyName);
        if (table.module().detachedIndexes().contains(index.qualified)
                || !table.module().store().reopen(table.derbySchema(), derbyName, COLUMNS)) {
            return Optional.empty();
        }
        return Optional.of(index);
    }

    String qualifiedDerbyName() {
        return qualified;
    }

    String derbyName() {
        return derbyName;
    }

    IndexShape shape() {
        return shape;
    }

    /**
     * Builds the entries of the committed rows for {@code writer} — the session transaction that
     * has written under the engine's write lock, which the creating statement holds — inside its
     * Derby transaction, so that a rollback takes them away; its pending rows' entries follow in
     * its flush. With no such transaction, in a transaction of its own.
     */
    void fill(DerbyTransaction writer) {
        if (writer != null) {
            try {
                fillCommitted(writer.session().connection());
            } catch (SQLException e) {
                throw writer.fail("build index " + shape.name() + " of " + table.shape().qualifiedName() + " in", e);
            }
            return;
        }
        table.module().store().onOwnConnection(c -> {
            fillCommitted(c);
            return null;
        });
    }

    /** Builds the entries of every row the table holds for {@code c}, through {@code c}. */
    void fillCommitted(Connection c) throws SQLException {
        TableShape base = table.shape();
        table.module().executed(1);
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("select " + table.columnList("b") + " from " + table.qualifiedDerbyName() + " b");
             PreparedStatement p = c.prepareStatement(insert)) {
            int batched = 0;
            while (rs.next()) {
                Object[] row = table.decode(rs, 1);
                byte[] key = table.keyCodec().encode(base.keyOf(row));
                byte[] entry = entryOf(row, key);
                if (entry != null) {
                    p.setBytes(1, entry);
                    p.setBytes(2, key);
                    p.addBatch();
                    table.module().executed(1);
                    if (++batched % 1000 == 0) {
                        p.executeBatch();
                    }
                }
            }
            p.executeBatch();
        }
    }

    /** The entries a flush removes and adds, each with the physical key of its row, in key order. */
    record EntryChanges(List<byte[][]> removed, List<byte[][]> added) {
    }

    /** The entry changes of {@code changes}: none for a row whose entry stays as it was. */
    EntryChanges entryChanges(List<DerbyTable.Change> changes) {
        List<byte[][]> removed = new ArrayList<>();
        List<byte[][]> added = new ArrayList<>();
        for (DerbyTable.Change c : changes) {
            byte[] old = c.committed() == null ? null : entryOf(c.committed(), c.key());
            byte[] now = c.row() == null ? null : entryOf(c.row(), c.key());
            if (old != null && now != null && Arrays.equals(old, now)) {
                continue;
            }
            if (old != null) {
                removed.add(new byte[][] {old, c.key()});
            }
            if (now != null) {
                added.add(new byte[][] {now, c.key()});
            }
        }
        return new EntryChanges(removed, added);
    }

    /** Registers the before-images of the entries {@code changes} remove (present) and add (absent). */
    void register(EntryChanges changes, Flush flush) {
        for (byte[][] e : changes.removed()) {
            flush.writing(images, e[0], e[1]);
        }
        for (byte[][] e : changes.added()) {
            flush.writing(images, e[0], null);
        }
    }

    /** Writes {@code changes}, in batches: removals first, as entries are unique. */
    void write(DerbyTransaction tx, EntryChanges changes, Flush flush) throws SQLException {
        String what = "index " + shape.name() + " of " + table.shape().qualifiedName();
        // Prepared only when needed, as DerbyTable.write explains.
        if (!changes.removed().isEmpty()) {
            PreparedStatement deletes = tx.session().statement(delete);
            int deleted = 0;
            for (byte[][] e : changes.removed()) {
                deletes.setBytes(1, e[0]);
                deleted = flush.add(deletes, deleted, what);
            }
            flush.run(deletes, deleted, what);
        }
        if (!changes.added().isEmpty()) {
            PreparedStatement inserts = tx.session().statement(insert);
            int inserted = 0;
            for (byte[][] e : changes.added()) {
                inserts.setBytes(1, e[0]);
                inserts.setBytes(2, e[1]);
                inserted = flush.add(inserts, inserted, what);
            }
            flush.run(inserts, inserted, what);
        }
    }

    /**
     * The table's rows this index holds whose index key begins with {@code prefix}, in index
     * order, as of {@code snapshot} under the transaction's {@code pending} rows.
     */
    RowCursor scan(DerbyTransaction tx, Object[] prefix, long snapshot, PendingRows pending) {
        String sql = prefix.length == 0 ? scanAll : scanPrefix;
        KeyCodec.Bounds bounds = codec.bounds(prefix);
        try {
            PreparedStatement p = tx.session().borrow(sql);
            if (prefix.length > 0) {
                p.setBytes(1, bounds.from());
                p.setBytes(2, bounds.to());
            }
            table.module().executed(1);
            int entryColumn = table.shape().columns().size() + 1;
            ResultCursor stored = new ResultCursor(table, tx, sql, p, p.executeQuery(),
                    rs -> new SnapshotScan.Keyed(rs.getBytes(entryColumn), table.decode(rs, 1), rs.getBytes(entryColumn + 1)));
            return new SnapshotScan(stored, images, snapshot, bounds, resolver(tx, snapshot),
                    key -> pending.after(key) != null, pending.entries(this, bounds));
        } catch (SQLException e) {
            throw tx.fail("scan index " + shape.name() + " of " + table.shape().qualifiedName() + " in", e);
        }
    }

    /** An entry's row is the table's row at its physical key, as of the same snapshot. */
    private SnapshotScan.Resolver resolver(DerbyTransaction tx, long snapshot) {
        return new SnapshotScan.Resolver() {
            @Override
            public SnapshotScan.Keyed settled(SnapshotScan.Keyed stored) {
                Object before = table.images().at(stored.baseKey(), snapshot);
                if (before == BeforeImages.SETTLED) {
                    return stored;
                }
                return before == null ? null : new SnapshotScan.Keyed(stored.key(), (Object[]) before, stored.baseKey());
            }

            @Override
            public SnapshotScan.Keyed before(byte[] entry, Object before) {
                byte[] key = (byte[]) before;
                Object[] row = table.read(tx, key, snapshot);
                return row == null ? null : new SnapshotScan.Keyed(entry, row, key);
            }
        };
    }

    /** The entry of {@code row}, stored at {@code key}, or {@code null} when this index does not cover the row. */
    byte[] entryOf(Object[] row, byte[] key) {
        if (!shape.covers(row)) {
            return null;
        }
        byte[] indexKey = codec.encode(shape.keyOf(row));
        byte[] entry = Arrays.copyOf(indexKey, indexKey.length + key.length);
        System.arraycopy(key, 0, entry, indexKey.length, key.length);
        return entry;
    }

    BeforeImages images() {
        return images;
    }

    private static Map<String, String> columns() {
        Map<String, String> columns = new LinkedHashMap<>();
        columns.put("$entry", "VARCHAR");
        columns.put("$key", "VARCHAR");
        return columns;
    }
}
