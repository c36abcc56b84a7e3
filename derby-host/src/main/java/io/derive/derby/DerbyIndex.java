package io.derive.derby;

import io.derive.engine.spi.IndexShape;
import io.derive.engine.spi.TableShape;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.LinkedHashMap;
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
    private static final String DUPLICATE_KEY = "23505";
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

    private DerbyIndex(DerbyTable table, IndexShape shape, String derbyName) {
        this.table = table;
        this.shape = shape;
        this.codec = new KeyCodec(shape.columns().stream().map(IndexShape.Column::collation).toList(),
                shape.columns().stream().map(IndexShape.Column::descending).toList());
        this.derbyName = derbyName;
        this.qualified = DerbySql.qualified(table.derbySchema(), derbyName);
        this.insert = "insert into " + qualified + " (" + ENTRY + ", " + KEY + ") values (?, ?)";
        this.delete = "delete from " + qualified + " where " + ENTRY + " = ?";
        String select = "select " + table.columnList("b") + ", i." + ENTRY + " from " + qualified + " i join "
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
     * Builds the entries of every row the table holds for {@code writer} — the session
     * transaction that has written under the engine's write lock, which the creating statement
     * holds — inside that transaction, so a rollback takes them away with its rows; with no such
     * transaction, over committed rows in a transaction of its own.
     */
    void fill(DerbyTransaction writer) {
        if (writer != null) {
            try (ResultCursor rows = table.scan(writer, new Object[0], false)) {
                while (rows.hasNext()) {
                    Object[] row = rows.next();
                    replaced(writer, table.keyCodec().encode(table.shape().keyOf(row)), null, row);
                }
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
        table.module().executed();
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("select " + table.columnList("b") + " from " + table.qualifiedDerbyName() + " b");
             PreparedStatement p = c.prepareStatement(insert)) {
            int batched = 0;
            while (rs.next()) {
                Object[] row = table.decode(rs, 1);
                if (shape.covers(row)) {
                    byte[] key = table.keyCodec().encode(base.keyOf(row));
                    p.setBytes(1, entry(row, key));
                    p.setBytes(2, key);
                    p.addBatch();
                    if (++batched % 1000 == 0) {
                        table.module().executed();
                        p.executeBatch();
                    }
                }
            }
            table.module().executed();
            p.executeBatch();
        }
    }

    /** Keeps the entries in step with a write of the row at {@code key} from {@code before} to {@code after} (either may be null). */
    void replaced(DerbyTransaction tx, byte[] key, Object[] before, Object[] after) {
        byte[] old = before != null && shape.covers(before) ? entry(before, key) : null;
        byte[] now = after != null && shape.covers(after) ? entry(after, key) : null;
        if (old != null && now != null && Arrays.equals(old, now)) {
            return;
        }
        try {
            if (old != null) {
                PreparedStatement p = tx.session().statement(delete);
                p.setBytes(1, old);
                table.module().executed();
                p.executeUpdate();
            }
            if (now != null) {
                PreparedStatement p = tx.session().statement(insert);
                p.setBytes(1, now);
                p.setBytes(2, key);
                table.module().executed();
                p.executeUpdate();
            }
        } catch (SQLException e) {
            if (!DUPLICATE_KEY.equals(e.getSQLState())) {
                throw tx.fail("maintain index " + shape.name() + " of " + table.shape().qualifiedName() + " in", e);
            }
        }
    }

    /** The table's rows this index holds whose index key begins with {@code prefix}, in index order. */
    ResultCursor scan(DerbyTransaction tx, Object[] prefix) {
        String sql = prefix.length == 0 ? scanAll : scanPrefix;
        try {
            PreparedStatement p = tx.session().borrow(sql);
            if (prefix.length > 0) {
                // An encoded prefix begins with a tag byte below 0xFF, so it always has a successor.
                byte[] from = codec.encodePrefix(prefix);
                p.setBytes(1, from);
                p.setBytes(2, KeyCodec.successor(from));
            }
            table.module().executed();
            return new ResultCursor(table, tx, sql, p, p.executeQuery(), rs -> table.decode(rs, 1));
        } catch (SQLException e) {
            throw tx.fail("scan index " + shape.name() + " of " + table.shape().qualifiedName() + " in", e);
        }
    }

    private static Map<String, String> columns() {
        Map<String, String> columns = new LinkedHashMap<>();
        columns.put("$entry", "VARCHAR");
        columns.put("$key", "VARCHAR");
        return columns;
    }

    private byte[] entry(Object[] row, byte[] key) {
        byte[] indexKey = codec.encode(shape.keyOf(row));
        byte[] entry = Arrays.copyOf(indexKey, indexKey.length + key.length);
        System.arraycopy(key, 0, entry, indexKey.length, key.length);
        return entry;
    }
}
