package io.derive.bench;

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

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * P3, what keeping two materialized views current costs a source write on the Derby host: an
 * autocommit insert, update by key or delete by key of {@code src}, which feeds the projection
 * view {@value #PROJECTION_BODY} and the group-by view {@value #GROUP_BODY}, paired with its
 * floor, the same prepared statement on plain embedded Derby in memory, where hand-written
 * triggers keep two plain tables equal to the same bodies ({@link MaintenanceTriggers}).
 *
 * <p>Both sides autocommit every statement: one source write and its maintenance are one
 * transaction, committed before the call returns (for Derive, one Derby transaction of the
 * host's session connection). Row {@code k} is {@code (k, k % groups, k)}, so each of the
 * {@code rows / rowsPerGroup} groups holds {@code rowsPerGroup} rows; the Derive source has an
 * index on {@code g}, which the group-recompute arm needs to seek one group's rows instead of
 * scanning the source, while the Derby floor needs none (its triggers reach the group row by its
 * primary key). Writes visit the keys with a prime stride, so that consecutive writes touch
 * neither neighbouring rows nor the same group; the three operations see tables of the same
 * size, as in P1 ({@link PerRowMaintenanceBenchmark}): an insert puts back a row that an untimed
 * step removed just before, a delete removes a row that an untimed step puts back just after.
 */
// A million source rows and their copies in the views, on both sides, with Derby's page caches.
@Fork(jvmArgsAppend = {"-Xms6g", "-Xmx6g"})
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class DerbyTriggerMaintenanceBenchmark {
    /** The same schema on both sides: Derive reads {@code bigint} as an alias of {@code integer}. */
    static final String CREATE_SOURCE = """
            create table src (id bigint primary key, g bigint not null, v bigint not null)
            """;
    static final String PROJECTION_BODY = "select id, v from src";
    static final String GROUP_BODY = "select g, count(*) as n, sum(v) as total from src group by g";
    static final String INSERT = "insert into src (id, g, v) values (?, ?, ?)";
    static final String UPDATE_BY_KEY = "update src set v = v + 1 where id = ?";
    static final String DELETE_BY_KEY = "delete from src where id = ?";
    private static final long KEY_STRIDE = 7_919;

    /** The key the {@code n}-th write touches: every preloaded key once per {@code rows} writes, scattered. */
    static long key(long n, int rows) {
        return n * KEY_STRIDE % rows;
    }

    static long group(long key, int groups) {
        return key % groups;
    }

    static int groups(int rows, int rowsPerGroup) {
        if (rowsPerGroup < 1 || rows < rowsPerGroup || rows % rowsPerGroup != 0 || rows % KEY_STRIDE == 0) {
            throw new IllegalArgumentException("rows (" + rows + ") must be a multiple of rowsPerGroup (" + rowsPerGroup
                    + ") and not of " + KEY_STRIDE);
        }
        return rows / rowsPerGroup;
    }

    /** The Derive side of one trial. The states of the untimed steps extend it, as in P1. */
    @State(Scope.Thread)
    public static class DeriveTables {
        @Param("1000000")
        public int rows;

        @Param("10")
        public int rowsPerGroup;

        /** Reachable from tests in this package, which check the views against their bodies. */
        Database database;
        Session session;
        int groups;
        private PreparedStatement insert;
        private PreparedStatement update;
        private PreparedStatement delete;
        private long writes;

        @Setup(Level.Trial)
        public void open() throws Exception {
            groups = groups(rows, rowsPerGroup);
            database = DerbySettings.deriveOnDerby("derby-trigger-maintenance-bench");
            session = database.openSession();
            session.execute(CREATE_SOURCE);
            insert = session.prepare(INSERT);
            update = session.prepare(UPDATE_BY_KEY);
            delete = session.prepare(DELETE_BY_KEY);
            session.begin();
            LoadProgress.load("src (derive on derby)", rows, this::insertRow);
            session.commit();
            // Before the views: the group slice is planned when the view is created, against the indexes of then.
            session.execute("create index src_g on src (g)");
            session.execute("create materialized view src_projection as " + PROJECTION_BODY);
            session.execute("create materialized view src_groups as " + GROUP_BODY);
            requireArms(session);
            writes = 0;
        }

        private static void requireArms(Session session) {
            List<List<Object>> arms = session.execute("""
                    select name, arm from materialized_views() order by name
                    """).rows().stream().map(r -> r.values()).toList();
            List<List<Object>> expected = List.of(List.of("src_groups", "group recompute"),
                    List.of("src_projection", "per-row projection"));
            if (!arms.equals(expected)) {
                throw new IllegalStateException("the views are maintained by " + arms + ", not by " + expected);
            }
        }

        Result insertRow(long key) {
            return insert.execute(key, group(key, groups), key);
        }

        Result updateRow(long key) {
            return update.execute(key);
        }

        Result deleteRow(long key) {
            return delete.execute(key);
        }

        long nextKey() {
            return key(writes++, rows);
        }

        @TearDown(Level.Trial)
        public void close() {
            session.close();
            database.close();
        }
    }

    /** The Derby floor of one trial: the same source, its two tables and their triggers. */
    @State(Scope.Thread)
    public static class DerbyTables {
        @Param("1000000")
        public int rows;

        @Param("10")
        public int rowsPerGroup;

        /** Reachable from tests in this package, which compare the two sides. */
        DerbyMemoryDatabase database;
        int groups;
        private java.sql.PreparedStatement insert;
        private java.sql.PreparedStatement update;
        private java.sql.PreparedStatement delete;
        private long writes;

        @Setup(Level.Trial)
        public void open() throws Exception {
            groups = groups(rows, rowsPerGroup);
            database = DerbyMemoryDatabase.create("derby-trigger-maintenance-bench");
            database.execute(CREATE_SOURCE);
            database.execute(MaintenanceTriggers.CREATE_PROJECTION);
            database.execute(MaintenanceTriggers.CREATE_GROUPS);
            Connection c = database.connection();
            insert = c.prepareStatement(INSERT);
            update = c.prepareStatement(UPDATE_BY_KEY);
            delete = c.prepareStatement(DELETE_BY_KEY);
            c.setAutoCommit(false);
            LoadProgress.load("src (derby)", rows, this::insertRow);
            for (String fill : MaintenanceTriggers.FILL) {
                database.execute(fill);
            }
            c.commit();
            c.setAutoCommit(true);
            for (String trigger : MaintenanceTriggers.TRIGGERS) {
                database.execute(trigger);
            }
            writes = 0;
        }

        int insertRow(long key) throws SQLException {
            insert.setLong(1, key);
            insert.setLong(2, group(key, groups));
            insert.setLong(3, key);
            return insert.executeUpdate();
        }

        int updateRow(long key) throws SQLException {
            update.setLong(1, key);
            return update.executeUpdate();
        }

        int deleteRow(long key) throws SQLException {
            delete.setLong(1, key);
            return delete.executeUpdate();
        }

        long nextKey() {
            return key(writes++, rows);
        }

        @TearDown(Level.Trial)
        public void close() throws SQLException {
            insert.close();
            update.close();
            delete.close();
            database.close();
        }
    }

    /** Row {@code key} of the Derive source, removed before the insert that puts it back is timed. */
    @State(Scope.Thread)
    public static class DeriveKeyFree extends DeriveTables {
        long key;

        @Setup(Level.Invocation)
        public void removeRow() {
            key = nextKey();
            deleteRow(key);
        }
    }

    /** Row {@code key} of the Derive source, put back after the delete that removes it is timed. */
    @State(Scope.Thread)
    public static class DeriveRowToDelete extends DeriveTables {
        long key;

        @Setup(Level.Invocation)
        public void chooseRow() {
            key = nextKey();
        }

        @TearDown(Level.Invocation)
        public void restoreRow() {
            insertRow(key);
        }
    }

    /** Row {@code key} of the Derby source, removed before the insert that puts it back is timed. */
    @State(Scope.Thread)
    public static class DerbyKeyFree extends DerbyTables {
        long key;

        @Setup(Level.Invocation)
        public void removeRow() throws SQLException {
            key = nextKey();
            deleteRow(key);
        }
    }

    /** Row {@code key} of the Derby source, put back after the delete that removes it is timed. */
    @State(Scope.Thread)
    public static class DerbyRowToDelete extends DerbyTables {
        long key;

        @Setup(Level.Invocation)
        public void chooseRow() {
            key = nextKey();
        }

        @TearDown(Level.Invocation)
        public void restoreRow() throws SQLException {
            insertRow(key);
        }
    }

    @Benchmark
    public Result insertDeriveViews(DeriveKeyFree row) {
        return row.insertRow(row.key);
    }

    @Benchmark
    public int insertDerbyTriggers(DerbyKeyFree row) throws SQLException {
        return row.insertRow(row.key);
    }

    @Benchmark
    public Result updateByKeyDeriveViews(DeriveTables tables) {
        return tables.updateRow(tables.nextKey());
    }

    @Benchmark
    public int updateByKeyDerbyTriggers(DerbyTables tables) throws SQLException {
        return tables.updateRow(tables.nextKey());
    }

    @Benchmark
    public Result deleteByKeyDeriveViews(DeriveRowToDelete row) {
        return row.deleteRow(row.key);
    }

    @Benchmark
    public int deleteByKeyDerbyTriggers(DerbyRowToDelete row) throws SQLException {
        return row.deleteRow(row.key);
    }
}
