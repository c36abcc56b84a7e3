package io.derive.derby;

import io.derive.engine.api.BranchId;
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
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

import javax.transaction.xa.Xid;

/**
 * One engine table stored as one Derby table: a primary-key column holding the engine's physical
 * key in an order-preserving encoding ({@link KeyCodec}), so that Derby's primary-key index
 * serves point operations and ordered prefix scans under the engine's collations and
 * directions, beside one typed column per engine column ({@link ColumnCodec}), named as the
 * engine names it, for people reading the table with Derby's own tools. Secondary indexes are
 * Derby tables of their own ({@link DerbyIndex}).
 *
 * <p>Readers never wait for writers: sessions read Derby without locks, and a read answers, for
 * every key some write hides from its snapshot, with the value the table's {@link BeforeImages}
 * keep. A transaction's writes stay engine-side ({@link PendingRows}) until it prepares, and are
 * then {@linkplain #flush flushed} in batches inside its Derby transaction.
 *
 * <p>A table reopened with rows of XA branches an ended process left in doubt
 * ({@link #inDoubtWriters()}, from the {@link InDoubtManifest}) has no before-images for them:
 * the engine does not read it until they complete, and it is neither counted nor given index
 * entries before then ({@link #settle()}).
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
    private final BeforeImages images = new BeforeImages();
    private final ColumnMagnitudes magnitudes;
    /** The in-doubt branches of an ended process that wrote this table; see {@link #inDoubtWriters()}. */
    private final Set<BranchId> inDoubtWriters = new LinkedHashSet<>();
    /** Indexes created while {@link #inDoubtWriters} were not empty, built once they are. */
    private final List<DerbyIndex> unbuilt = new ArrayList<>();

    /**
     * The row count of a table reopened without counting it: the host's own tables, which no
     * query plans with and no engine statement reads, are counted only if asked, so that an open
     * runs no {@code count(*)} for them. (A count taken while their writer commits could miss its
     * delta; their writers are the open and the catalog's, which never ask.)
     */
    static final long UNCOUNTED = -1;

    /**
     * @param rows        the committed rows, or {@link #UNCOUNTED}
     * @param keptIndexes the Derby names of the index tables of an earlier open, by lower-case index name
     */
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
        this.magnitudes = new ColumnMagnitudes(shape);
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
        Map<String, String> types = new LinkedHashMap<>();
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
        return new DerbyTableConnection(this, module.session(session).transaction(session.branch()), session);
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

    /** The row count of a table reopened without one ({@link #UNCOUNTED}) is counted here, when first asked for. */
    @Override
    public long committedRowCount() {
        long rows = committedRows.get();
        if (rows == UNCOUNTED) {
            synchronized (committedRows) {
                if (committedRows.get() == UNCOUNTED) {
                    committedRows.compareAndSet(UNCOUNTED, module.store().countRows(qualified));
                }
            }
            rows = committedRows.get();
        }
        return rows;
    }

    void committed(long rowDelta) {
        committedRows.getAndUpdate(rows -> rows == UNCOUNTED ? rows : rows + rowDelta);
    }

    @Override
    public synchronized List<Xid> inDoubtWriters() {
        return List.copyOf(inDoubtWriters);
    }

    /** Reopened with rows and index entries {@code writers} wrote, whose outcome is unknown. */
    synchronized void awaitOutcomeOf(List<BranchId> writers) {
        inDoubtWriters.addAll(writers);
    }

    /** Branch {@code xid} has completed: true when no in-doubt branch wrote this table any more. */
    synchronized boolean outcomeKnown(BranchId xid) {
        inDoubtWriters.remove(xid);
        return inDoubtWriters.isEmpty();
    }

    /**
     * Counts the rows and builds the indexes deferred while in-doubt branches held them, now that
     * the last has completed; the engine has not read or written the table since it reopened it.
     */
    void settle() {
        committedRows.set(module.store().countRows(qualified));
        List<DerbyIndex> building;
        synchronized (this) {
            building = List.copyOf(unbuilt);
            unbuilt.clear();
        }
        building.forEach(index -> index.fill(null));
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
        synchronized (this) {
            if (!inDoubtWriters.isEmpty()) {
                // The rows it would index have no outcome yet: settle() builds it once they have.
                unbuilt.add(created);
                return;
            }
        }
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
            DerbyTableConnection writer = new DerbyTableConnection(target, source.transaction(), source.session());
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

    // ---- reads as of a snapshot, checks, and the flush: what connections and the backing host share ----

    /** What this table's keys held before the writes some snapshot must not see. */
    BeforeImages images() {
        return images;
    }

    /** Bounds of the integer values this table holds in Derby. */
    ColumnMagnitudes magnitudes() {
        return magnitudes;
    }

    /** The committed row at {@code key} (its encoded key) as of {@code snapshot}, or {@code null}. */
    Object[] read(DerbyTransaction tx, byte[] key, long snapshot) {
        if (tx.justRead(this, key, snapshot)) {
            return tx.lastRead();
        }
        if (key.length > ColumnCodec.MAX_LENGTH) {
            // No stored key is that long, and Derby refuses to compare with one; a write of it fails in checkedKey.
            return null;
        }
        Object[] stored;
        try {
            PreparedStatement p = tx.session().statement(selectByKey);
            p.setBytes(1, key);
            module.executed(1);
            try (ResultSet rs = p.executeQuery()) {
                stored = rs.next() ? decode(rs, 1) : null;
            }
        } catch (SQLException e) {
            throw tx.fail("read table " + shape.qualifiedName() + " of", e);
        }
        Object before = images.at(key, snapshot);
        Object[] row = before == BeforeImages.SETTLED ? stored : (Object[]) before;
        tx.rememberRead(this, key, snapshot, row);
        return row;
    }

    /**
     * Rows whose encoded key lies in the bounds, in key order, as of {@code snapshot} under the
     * transaction's {@code pending} rows.
     */
    RowCursor scan(DerbyTransaction tx, KeyCodec.Bounds bounds, long snapshot, PendingRows pending) {
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
            module.executed(1);
            int keyColumn = codecs.length + 1;
            ResultCursor stored = new ResultCursor(this, tx, sql, p, p.executeQuery(), rs -> {
                byte[] key = rs.getBytes(keyColumn);
                return new SnapshotScan.Keyed(key, decode(rs, 1), key);
            });
            return new SnapshotScan(stored, images, snapshot, bounds, SnapshotScan.TABLE_ROWS, key -> false, pending.rows(bounds));
        } catch (SQLException e) {
            throw tx.fail("scan table " + shape.qualifiedName() + " of", e);
        }
    }

    /**
     * The encoded key of {@code row}, once every value, the key and each index entry of it is
     * known to fit Derby: a write's errors belong to its statement, not to the flush.
     *
     * @throws DeriveException with code DATA naming the column, or the table and index, and the limit
     */
    byte[] checkedKey(Object[] row) {
        for (int c = 0; c < codecs.length; c++) {
            codecs[c].check(row[c], shape.name() + "." + shape.columns().get(c).name());
        }
        byte[] key = keyCodec.encode(shape.keyOf(row));
        requireFits(key.length, "the primary key");
        for (DerbyIndex index : indexes.values()) {
            byte[] entry = index.entryOf(row, key);
            if (entry != null) {
                requireFits(entry.length, "an entry of index " + index.shape().name());
            }
        }
        return key;
    }

    private void requireFits(int length, String what) {
        if (length > ColumnCodec.MAX_LENGTH) {
            throw new DeriveException(DeriveException.DATA, "key too long for table " + shape.qualifiedName() + ": "
                    + what + " encodes to " + length + " bytes; the Derby host stores at most " + ColumnCodec.MAX_LENGTH);
        }
    }

    /** One key's change in a flush: the committed row and the row the transaction leaves, either {@code null} for none. */
    record Change(byte[] key, Object[] committed, Object[] row) {
    }

    /** What a flush writes to this table and to each of its index tables. */
    record TableChanges(List<Change> rows, Map<DerbyIndex, DerbyIndex.EntryChanges> entries) {
    }

    /** The qualified Derby names of the tables {@code changes} writes: this table's, and those of the indexes whose entries change. */
    List<String> tablesWritten(TableChanges changes) {
        List<String> written = new ArrayList<>();
        if (!changes.rows().isEmpty()) {
            written.add(qualified);
        }
        changes.entries().forEach((index, entries) -> {
            if (!entries.removed().isEmpty() || !entries.added().isEmpty()) {
                written.add(index.qualifiedDerbyName());
            }
        });
        return written;
    }

    /** The changes {@code pending} makes, in key order; keys it inserted and deleted again are left out. */
    TableChanges changes(PendingRows pending) {
        List<Change> rows = new ArrayList<>();
        for (var it = pending.rows(); it.hasNext(); ) {
            var e = it.next();
            Object[] before = pending.before(e.key());
            Object[] committed = before == PendingRows.ABSENT ? null : before;
            Object[] row = e.value() == PendingRows.DELETED ? null : e.value();
            if (committed != null || row != null) {
                rows.add(new Change(e.key(), committed, row));
            }
        }
        Map<DerbyIndex, DerbyIndex.EntryChanges> entries = new LinkedHashMap<>();
        for (DerbyIndex index : indexes.values()) {
            entries.put(index, index.entryChanges(rows));
        }
        return new TableChanges(rows, entries);
    }

    /**
     * Registers the before-images of {@code changes} in this table's key spaces. A flush
     * registers every key space's before Derby sees any of its writes: a reader may meet an
     * index entry whose row is already gone, and finds both in the images then.
     */
    void register(TableChanges changes, Flush flush) {
        for (Change c : changes.rows()) {
            if (c.row() != null) {
                magnitudes.writing(c.row());
            }
            flush.writing(images, c.key(), c.committed());
        }
        changes.entries().forEach((index, entries) -> index.register(entries, flush));
    }

    /**
     * Writes {@code changes} to this table and its index tables, in batches. A statement is
     * prepared only for a kind of change the flush has: Derby compiles at prepare, and a
     * session's first flush of a table would otherwise compile all three.
     */
    void write(DerbyTransaction tx, TableChanges changes, Flush flush) throws SQLException {
        String what = "table " + shape.qualifiedName();
        PreparedStatement inserts = null;
        PreparedStatement updates = null;
        PreparedStatement deletes = null;
        int inserted = 0;
        int updated = 0;
        int deleted = 0;
        long rowDelta = 0;
        for (Change c : changes.rows()) {
            if (c.committed() == null) {
                inserts = inserts != null ? inserts : tx.session().statement(insert);
                inserts.setBytes(1, c.key());
                bindColumns(inserts, 2, c.row());
                inserted = flush.add(inserts, inserted, what);
                rowDelta++;
            } else if (c.row() == null) {
                deletes = deletes != null ? deletes : tx.session().statement(delete);
                deletes.setBytes(1, c.key());
                deleted = flush.add(deletes, deleted, what);
                rowDelta--;
            } else {
                updates = updates != null ? updates : tx.session().statement(update);
                bindColumns(updates, 1, c.row());
                updates.setBytes(codecs.length + 1, c.key());
                updated = flush.add(updates, updated, what);
            }
        }
        if (deletes != null) {
            flush.run(deletes, deleted, what);
        }
        if (updates != null) {
            flush.run(updates, updated, what);
        }
        if (inserts != null) {
            flush.run(inserts, inserted, what);
        }
        flush.countRows(this, rowDelta);
        for (Map.Entry<DerbyIndex, DerbyIndex.EntryChanges> e : changes.entries().entrySet()) {
            e.getKey().write(tx, e.getValue(), flush);
        }
    }

    private void bindColumns(PreparedStatement p, int first, Object[] row) throws SQLException {
        for (int c = 0; c < codecs.length; c++) {
            codecs[c].set(p, first + c, row[c], shape.name() + "." + shape.columns().get(c).name());
        }
    }

    /**
     * Replaces the committed contents with {@code rows} (distinct keys) in one Derby transaction
     * of the DDL connection: readers see the old rows or the new ones.
     */
    void replaceCommitted(List<Object[]> rows) {
        String key = DerbySql.identifier(keyColumn(shape));
        rows.forEach(magnitudes::writing);
        images.rewriting();
        try {
            replaceCommittedRows(rows, key);
        } finally {
            images.rewritten();
        }
        committedRows.set(rows.size());
    }

    private void replaceCommittedRows(List<Object[]> rows, String key) {
        module.store().onOwnConnection(c -> {
            try (java.sql.Statement s = c.createStatement()) {
                module.executed(1);
                s.executeUpdate("delete from " + qualified);
                for (DerbyIndex index : indexes.values()) {
                    module.executed(1);
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
                        module.executed(1);
                        p.executeBatch();
                    }
                }
                module.executed(1);
                p.executeBatch();
            }
            for (DerbyIndex index : indexes.values()) {
                index.fillCommitted(c);
            }
            return null;
        });
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
        return "select " + columnList + ", " + key + " from " + qualified
                + (where.isEmpty() ? "" : " where " + String.join(" and ", where)) + " order by " + key;
    }
}
