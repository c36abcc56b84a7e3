package io.derive.bench;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.Derive;
import io.derive.engine.api.Database;
import io.derive.engine.api.PreparedStatement;
import io.derive.engine.api.Result;
import io.derive.engine.api.Session;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Point operations by primary key in autocommit, each Derive measure paired with its floor, the
 * same prepared statement on embedded Derby in memory: an insert of a new key, and a select of
 * one preloaded row.
 *
 * <p>Each trial gets fresh databases holding {@code rows} items (keys {@code 0 .. rows - 1}).
 * Inserts use keys above those, and each iteration starts by removing the rows the previous one
 * inserted, so every iteration inserts into a table of the same size. Selects visit the preloaded
 * keys with a prime stride, so consecutive reads do not touch neighbouring keys.
 */
// A fixed heap keeps heap resizing out of the figures; the inserted rows are retained until the
// end of each iteration.
@Fork(jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class PointOpsBenchmark {
    /** The same schema on both sides: Derive reads {@code bigint} and {@code varchar} as aliases. */
    static final String CREATE_ITEM = """
            create table item (id bigint primary key, name varchar(40) not null, qty bigint not null)
            """;
    static final String INSERT_ITEM = "insert into item (id, name, qty) values (?, ?, ?)";
    static final String SELECT_ITEM = "select name, qty from item where id = ?";
    static final String REMOVE_INSERTED = "delete from item where id >= ?";
    private static final long KEY_STRIDE = 7_919;

    static String name(long key) {
        return "item-" + key;
    }

    static long qty(long key) {
        return key % 100;
    }

    /** The key the {@code n}-th select reads: the preloaded keys in a scattered order. */
    static long selectedKey(long n, int rows) {
        return n * KEY_STRIDE % rows;
    }

    @State(Scope.Thread)
    public static class DeriveItems {
        @Param("100000")
        public int rows;

        Database database;
        Session session;
        private PreparedStatement insert;
        private PreparedStatement select;
        private long nextInsertKey;
        private long selects;

        @Setup(Level.Trial)
        public void open() throws Exception {
            database = Derive.open(DatabaseConfig.named("point-ops-bench"));
            session = database.openSession();
            session.execute(CREATE_ITEM);
            insert = session.prepare(INSERT_ITEM);
            select = session.prepare(SELECT_ITEM);
            session.begin();
            LoadProgress.load("item (derive)", rows, key -> insert.execute(key, name(key), qty(key)));
            session.commit();
            nextInsertKey = rows;
        }

        @Setup(Level.Iteration)
        public void removeInsertedRows() {
            session.execute(REMOVE_INSERTED, rows);
            nextInsertKey = rows;
        }

        @TearDown(Level.Trial)
        public void close() {
            session.close();
            database.close();
        }
    }

    @State(Scope.Thread)
    public static class DerbyItems {
        @Param("100000")
        public int rows;

        DerbyMemoryDatabase database;
        private java.sql.PreparedStatement insert;
        private java.sql.PreparedStatement select;
        private long nextInsertKey;
        private long selects;

        @Setup(Level.Trial)
        public void open() throws Exception {
            database = DerbyMemoryDatabase.create("point-ops-bench");
            database.execute(CREATE_ITEM);
            insert = database.connection().prepareStatement(INSERT_ITEM);
            select = database.connection().prepareStatement(SELECT_ITEM);
            database.connection().setAutoCommit(false);
            LoadProgress.load("item (derby)", rows, key -> insertRow(key));
            database.connection().commit();
            database.connection().setAutoCommit(true);
            nextInsertKey = rows;
        }

        private int insertRow(long key) throws SQLException {
            insert.setLong(1, key);
            insert.setString(2, name(key));
            insert.setLong(3, qty(key));
            return insert.executeUpdate();
        }

        @Setup(Level.Iteration)
        public void removeInsertedRows() throws SQLException {
            try (java.sql.PreparedStatement remove = database.connection().prepareStatement(REMOVE_INSERTED)) {
                remove.setLong(1, rows);
                remove.executeUpdate();
            }
            nextInsertKey = rows;
        }

        @TearDown(Level.Trial)
        public void close() throws SQLException {
            insert.close();
            select.close();
            database.close();
        }
    }

    @Benchmark
    public Result deriveInsertByKey(DeriveItems items) {
        long key = items.nextInsertKey++;
        return items.insert.execute(key, name(key), qty(key));
    }

    @Benchmark
    public int derbyInsertByKey(DerbyItems items) throws SQLException {
        return items.insertRow(items.nextInsertKey++);
    }

    @Benchmark
    public Result deriveSelectByKey(DeriveItems items) {
        return items.select.execute(selectedKey(items.selects++, items.rows));
    }

    @Benchmark
    public List<List<Object>> derbySelectByKey(DerbyItems items) throws SQLException {
        items.select.setLong(1, selectedKey(items.selects++, items.rows));
        return DerbyMemoryDatabase.rows(items.select, 2);
    }
}
