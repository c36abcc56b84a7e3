package io.derive.derby;

import io.derive.engine.api.DeriveException;
import io.derive.engine.spi.BackingHost;
import io.derive.engine.spi.HostSession;
import io.derive.engine.spi.HostedTable;
import io.derive.engine.spi.IndexShape;
import io.derive.engine.spi.KeyRange;
import io.derive.engine.spi.RowCursor;
import io.derive.engine.spi.TableConnection;
import io.derive.engine.spi.TableShape;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * One engine table stored as one Derby table: a primary-key column holding the engine's physical
 * key in an order-preserving encoding ({@link KeyCodec}), so that Derby's primary-key index
 * serves point operations and ordered prefix scans under the engine's collations and
 * directions, beside one typed column per engine column ({@link ColumnCodec}), named as the
 * engine names it, for people reading the table with Derby's own tools. Secondary indexes are
 * Derby tables of their own ({@link DerbyIndex}).
 *
 * <p>The methods taking a {@link DerbyTransaction} are the raw reads and writes the connections,
 * the backing host and the undo log share; they record nothing themselves.
 */
final class DerbyTable implements HostedTable {
    private final DerbyTableModule module;
    private final TableShape shape;
    private final String derbySchema;
    private final String derbyName;
    private final String qualified;
    private final KeyCodec keyCodec;
    private final ColumnCodec[] codecs;
    private final String columnList;
    private final String selectByKey;
    private final String insert;
    private final String update;
    private final String delete;
    private final Map<String, String> scans = new ConcurrentHashMap<>();
    private final Map<String, DerbyIndex> indexes = new ConcurrentHashMap<>();
    /** Index tables of an earlier open, by index key, that {@link #reopenIndex} may reattach. */
    private final Map<String, String> keptIndexes;
    private final AtomicLong committedRows;
    private final DerbyBackingHost backing = new DerbyBackingHost(this);

    /** @param keptIndexes the Derby names of the index tables of an earlier open, by lower-case index name */
    DerbyTable(DerbyTableModule module, TableShape shape, String derbySchema, String derbyName, long rows,
               Map<String, String> keptIndexes) {
        this.module = module;
        this.keptIndexes = new ConcurrentHashMap<>(keptIndexes);
        this.shape = shape;
        this.derbySchema = derbySchema;
        this.derbyName = derbyName;
        this.qualified = DerbySql.qualified(derbySchema, derbyName);
        this.keyCodec = KeyCodec.of(shape);
        this.codecs = shape.columns().stream().map(c -> ColumnCodec.of(c.type())).toArray(ColumnCodec[]::new);
        this.committedRows = new AtomicLong(rows);
        List<String> names = shape.columns().stream().map(c -> DerbySql.identifier(c.name())).toList();
        this.columnList = String.join(", ", names);
        String key = DerbySql.identifier(keyColumn(shape));
        this.selectByKey = "select " + columnList + " from " + qualified + " where " + key + " = ?";
        this.insert = "insert into " + qualified + " (" + key + ", " + columnList + ") values (?"
                + ", ?".repeat(names.size()) + ")";
        this.update = "update " + qualified + " set " + String.join(", ", names.stream().map(n -> n + " = ?").toList())
                + " where " + key + " = ?";
        this.delete = "delete from " + qualified + " where " + key + " = ?";
    }

    /** The column list of the Derby table for {@code shape}. */
    static String columnDefinitions(TableShape shape) {
        StringBuilder sql = new StringBuilder(DerbySql.identifier(keyColumn(shape)))
                .append(" varchar(32672) for bit data not null primary key");
        for (TableShape.Column c : shape.columns()) {
            sql.append(", ").append(DerbySql.identifier(c.name())).append(' ').append(ColumnCodec.of(c.type()).derbyType());
        }
        return sql.toString();
    }

    /** Derby's names of the column types of the table for {@code shape}, by column name. */
    static Map<String, String> columnTypes(TableShape shape) {
        Map<String, String> types = new java.util.LinkedHashMap<>();
        types.put(keyColumn(shape), "VARCHAR (32672) FOR BIT DATA");
        for (TableShape.Column c : shape.columns()) {
            types.put(c.name(), ColumnCodec.of(c.type()).derbyType());
        }
        return types;
    }

    /** {@code $key}, or as many more {@code $} as it takes to differ from every engine column name. */
    static String keyColumn(TableShape shape) {
        String name = "$key";
        while (true) {
            String candidate = name;
            if (shape.columns().stream().noneMatch(c -> c.name().equalsIgnoreCase(candidate))) {
                return name;
            }
            name = "$" + name;
        }
    }

    @Override
    public TableShape shape() {
        return shape;
    }

    String qualifiedDerbyName() {
        return qualified;
    }

    String derbySchema() {
        return derbySchema;
    }

    String derbyName() {
        return derbyName;
    }

    KeyCodec keyCodec() {
        return keyCodec;
    }

    DerbyTableModule module() {
        return module;
    }

    @Override
    public TableConnection connect(HostSession session) {
        return new DerbyTableConnection(this, module.session(session).transaction(session.branch()));
    }

    /**
     * The qualified Derby name, then, for each secondary index, its lower-case name and the Derby
     * name of its table, each a delimited identifier after a space: {@link DerbyTableModule#reopen}
     * finds the table by it, and {@link #reopenIndex} the index tables.
     */
    @Override
    public Optional<String> storageId() {
        StringBuilder id = new StringBuilder(qualified);
        new java.util.TreeMap<>(indexes).forEach((key, index) -> id.append(' ').append(DerbySql.identifier(key))
                .append(' ').append(DerbySql.identifier(index.derbyName())));
        return Optional.of(id.toString());
    }

    @Override
    public long committedRowCount() {
        return committedRows.get();
    }

    void committed(long rowDelta) {
        committedRows.addAndGet(rowDelta);
    }

    @Override
    public Optional<BackingHost> backingHost() {
        return Optional.of(backing);
    }

    @Override
    public void createIndex(IndexShape index) {
        String key = index.name().toLowerCase(Locale.ROOT);
        if (indexes.containsKey(key)) {
            throw new DeriveException(DeriveException.DUPLICATE_OBJECT, "index " + index.name()
                    + " already exists on table " + shape.qualifiedName());
        }
        DerbyIndex created = DerbyIndex.create(this, index);
        indexes.put(key, created);
        try {
            created.fill(module.currentWriter());
        } catch (RuntimeException e) {
            indexes.remove(key);
            module.store().dropLater(created.qualifiedDerbyName());
            throw e;
        }
    }

    /**
     * Reattaches the index table the catalog's storage id named for this index, unless it is
     * missing or was detached since (see {@link DetachedIndexes}): Derby writes its entries in
     * the same transaction as the table's rows, so they are current after any close.
     */
    @Override
    public boolean reopenIndex(IndexShape index) {
        String key = index.name().toLowerCase(Locale.ROOT);
        String kept = keptIndexes.remove(key);
        if (kept == null || indexes.containsKey(key)) {
            return false;
        }
        Optional<DerbyIndex> reopened = DerbyIndex.reopen(this, index, kept);
        reopened.ifPresent(i -> indexes.put(key, i));
        return reopened.isPresent();
    }

    /**
     * Records the index table detached before its drop is queued: a crash may forget the queue,
     * and the durable catalog may still name the table (see {@link DetachedIndexes}).
     */
    @Override
    public void dropIndex(String name) {
        DerbyIndex removed = indexes.remove(name.toLowerCase(Locale.ROOT));
        if (removed != null) {
            module.detachedIndexes().add(removed.qualifiedDerbyName());
            module.store().dropLater(removed.qualifiedDerbyName());
        }
    }

    DerbyIndex index(String name) {
        DerbyIndex index = indexes.get(name.toLowerCase(Locale.ROOT));
        if (index == null) {
            throw new DeriveException(DeriveException.UNDEFINED_OBJECT, "no index " + name + " on table " + shape.qualifiedName());
        }
        return index;
    }

    @Override
    public HostedTable reshape(TableConnection connection, TableShape newShape, UnaryOperator<Object[]> rowMapping,
                               Supplier<? extends RuntimeException> onDuplicateKey) {
        DerbyTableConnection source = (DerbyTableConnection) connection;
        DerbyTable target = module.createTable(newShape);
        try {
            DerbyTableConnection writer = new DerbyTableConnection(target, source.transaction());
            try (RowCursor rows = source.scan(new Object[0], false)) {
                while (rows.hasNext()) {
                    Object[] mapped = rowMapping.apply(rows.next());
                    if (writer.get(newShape.keyOf(mapped)).isPresent()) {
                        throw onDuplicateKey.get();
                    }
                    writer.put(mapped);
                }
            }
            return target;
        } catch (RuntimeException e) {
            target.drop();
            throw e;
        }
    }

    @Override
    public void drop() {
        indexes.values().forEach(i -> module.store().dropLater(i.qualifiedDerbyName()));
        indexes.clear();
        module.store().dropLater(qualified);
    }

    // ---- raw reads and writes, shared by connections, the backing host and the undo log ----

    Object[] read(DerbyTransaction tx, byte[] key) {
        if (tx.justRead(this, key)) {
            return tx.lastRead();
        }
        try {
            PreparedStatement p = tx.session().statement(selectByKey);
            p.setBytes(1, key);
            module.executed();
            try (ResultSet rs = p.executeQuery()) {
                Object[] row = rs.next() ? decode(rs, 1) : null;
                tx.rememberRead(this, key, row);
                return row;
            }
        } catch (SQLException e) {
            throw tx.fail("read table " + shape.qualifiedName() + " of", e);
        }
    }

    /**
     * Rows whose encoded key lies in the bounds, in key order. Derby reads its primary-key index
     * forward only (an {@code order by … desc} over it makes Derby sort), so a descending scan reads
     * the range forward and hands it out reversed.
     */
    ResultCursor scan(DerbyTransaction tx, KeyCodec.Bounds bounds, boolean descending) {
        String sql = scans.computeIfAbsent(variant(bounds), v -> scanSql(bounds));
        try {
            PreparedStatement p = tx.session().borrow(sql);
            int i = 1;
            if (bounds.from() != null) {
                p.setBytes(i++, bounds.from());
            }
            if (bounds.to() != null) {
                p.setBytes(i, bounds.to());
            }
            module.executed();
            ResultCursor cursor = new ResultCursor(this, tx, sql, p, p.executeQuery(), rs -> decode(rs, 1));
            if (descending) {
                cursor.drainReversed();
            }
            return cursor;
        } catch (SQLException e) {
            throw tx.fail("scan table " + shape.qualifiedName() + " of", e);
        }
    }

    ResultCursor scan(DerbyTransaction tx, Object[] prefix, boolean descending) {
        if (prefix.length == 0) {
            return scan(tx, new KeyCodec.Bounds(null, false, null, false), descending);
        }
        byte[] from = keyCodec.encodePrefix(prefix);
        return scan(tx, new KeyCodec.Bounds(from, true, KeyCodec.successor(from), false), descending);
    }

    ResultCursor scan(DerbyTransaction tx, KeyRange range, boolean descending) {
        return scan(tx, keyCodec.bounds(range), descending);
    }

    /** Stores {@code row} at {@code key} (its encoded key) and returns the row it replaced, or {@code null}. */
    Object[] store(DerbyTransaction tx, byte[] key, Object[] row) {
        Object[] before = read(tx, key);
        write(tx, key, row, before);
        return before;
    }

    /** Stores {@code row} at {@code key} where the caller has just read {@code before} ({@code null}: no row). */
    void write(DerbyTransaction tx, byte[] key, Object[] row, Object[] before) {
        tx.forgetRead();
        try {
            PreparedStatement p = tx.session().statement(before == null ? insert : update);
            int i = 1;
            if (before == null) {
                p.setBytes(i++, key);
            }
            for (int c = 0; c < codecs.length; c++) {
                codecs[c].set(p, i++, row[c], shape.name() + "." + shape.columns().get(c).name());
            }
            if (before != null) {
                p.setBytes(i, key);
            }
            module.executed();
            p.executeUpdate();
        } catch (SQLException e) {
            throw tx.fail("write table " + shape.qualifiedName() + " of", e);
        }
        for (DerbyIndex index : indexes.values()) {
            index.replaced(tx, key, before, row);
        }
    }

    /** Removes the row at {@code key} and returns it, or {@code null} when there was none. */
    Object[] remove(DerbyTransaction tx, byte[] key) {
        Object[] before = read(tx, key);
        if (before == null) {
            return null;
        }
        tx.forgetRead();
        try {
            PreparedStatement p = tx.session().statement(delete);
            p.setBytes(1, key);
            module.executed();
            p.executeUpdate();
        } catch (SQLException e) {
            throw tx.fail("delete from table " + shape.qualifiedName() + " of", e);
        }
        for (DerbyIndex index : indexes.values()) {
            index.replaced(tx, key, before, null);
        }
        return before;
    }

    /** Undo: puts back {@code before} at {@code key}, or removes the row when {@code before} is null. */
    void restore(DerbyTransaction tx, byte[] key, Object[] before) {
        Object[] current = before == null ? remove(tx, key) : store(tx, key, before);
        tx.adjustRows(this, (before == null ? 0 : 1) - (current == null ? 0 : 1));
    }

    /**
     * Replaces the committed contents with {@code rows} (distinct keys) in one Derby transaction
     * of the DDL connection: readers see the old rows or the new ones.
     */
    void replaceCommitted(List<Object[]> rows) {
        String key = DerbySql.identifier(keyColumn(shape));
        module.store().onOwnConnection(c -> {
            try (java.sql.Statement s = c.createStatement()) {
                module.executed();
                s.executeUpdate("delete from " + qualified);
                for (DerbyIndex index : indexes.values()) {
                    module.executed();
                    s.executeUpdate("delete from " + index.qualifiedDerbyName());
                }
            }
            try (PreparedStatement p = c.prepareStatement("insert into " + qualified + " (" + key + ", " + columnList
                    + ") values (?" + ", ?".repeat(codecs.length) + ")")) {
                int batched = 0;
                for (Object[] row : rows) {
                    p.setBytes(1, keyCodec.encode(shape.keyOf(row)));
                    for (int col = 0; col < codecs.length; col++) {
                        codecs[col].set(p, col + 2, row[col], shape.name() + "." + shape.columns().get(col).name());
                    }
                    p.addBatch();
                    if (++batched % 1000 == 0) {
                        module.executed();
                        p.executeBatch();
                    }
                }
                module.executed();
                p.executeBatch();
            }
            for (DerbyIndex index : indexes.values()) {
                index.fillCommitted(c);
            }
            return null;
        });
        committedRows.set(rows.size());
    }

    /** The engine row in the result columns starting at {@code first}. */
    Object[] decode(ResultSet rs, int first) throws SQLException {
        Object[] row = new Object[codecs.length];
        for (int c = 0; c < row.length; c++) {
            row[c] = codecs[c].get(rs, first + c);
        }
        return row;
    }

    String columnList(String alias) {
        List<String> names = new ArrayList<>();
        for (TableShape.Column c : shape.columns()) {
            names.add(alias + "." + DerbySql.identifier(c.name()));
        }
        return String.join(", ", names);
    }

    private static String variant(KeyCodec.Bounds b) {
        return (b.from() == null ? "-" : b.fromInclusive() ? "[" : "(") + (b.to() == null ? "-" : b.toInclusive() ? "]" : ")");
    }

    private String scanSql(KeyCodec.Bounds b) {
        String key = DerbySql.identifier(keyColumn(shape));
        List<String> where = new ArrayList<>();
        if (b.from() != null) {
            where.add(key + (b.fromInclusive() ? " >= ?" : " > ?"));
        }
        if (b.to() != null) {
            where.add(key + (b.toInclusive() ? " <= ?" : " < ?"));
        }
        return "select " + columnList + " from " + qualified + (where.isEmpty() ? "" : " where " + String.join(" and ", where))
                + " order by " + key;
    }
}
