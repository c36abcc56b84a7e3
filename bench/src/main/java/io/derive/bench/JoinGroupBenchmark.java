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
 * A two-way join with group by over all {@code rows} orders, each joined to its customer by the
 * customer's primary key and summed per region, as one prepared query in autocommit; the Derive
 * measure is paired with its floor, the same query on embedded Derby in memory.
 *
 * <p>There is one customer per {@value #ORDERS_PER_CUSTOMER} orders and {@value #REGIONS}
 * regions, so the result has {@value #REGIONS} rows whatever the size.
 */
@Fork(jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class JoinGroupBenchmark {
    static final int ORDERS_PER_CUSTOMER = 100;
    static final int REGIONS = 10;

    /** The same schema on both sides: Derive reads {@code bigint} and {@code varchar} as aliases. */
    static final String CREATE_CUSTOMERS = """
            create table customers (id bigint primary key, region varchar(20) not null)
            """;
    static final String CREATE_ORDERS = """
            create table orders (id bigint primary key, customer_id bigint not null, amount bigint not null)
            """;
    static final String INSERT_CUSTOMER = "insert into customers (id, region) values (?, ?)";
    static final String INSERT_ORDER = "insert into orders (id, customer_id, amount) values (?, ?, ?)";
    static final String REGION_TOTALS = """
            select c.region, count(*) as order_count, sum(o.amount) as total_amount
            from orders o join customers c on c.id = o.customer_id
            group by c.region
            order by c.region
            """;
    static final int REGION_TOTALS_COLUMNS = 3;

    static int customers(int orders) {
        return Math.max(1, orders / ORDERS_PER_CUSTOMER);
    }

    static String region(long customer) {
        return "region-" + customer % REGIONS;
    }

    static long customerOf(long order, int orders) {
        return order % customers(orders);
    }

    static long amount(long order) {
        return order % 997 + 1;
    }

    @State(Scope.Thread)
    public static class DeriveOrders {
        @Param("100000")
        public int rows;

        Database database;
        private Session session;
        private PreparedStatement regionTotals;

        @Setup(Level.Trial)
        public void open() throws Exception {
            database = Derive.open(DatabaseConfig.named("join-group-bench"));
            session = database.openSession();
            session.execute(CREATE_CUSTOMERS);
            session.execute(CREATE_ORDERS);
            PreparedStatement customer = session.prepare(INSERT_CUSTOMER);
            PreparedStatement order = session.prepare(INSERT_ORDER);
            session.begin();
            LoadProgress.load("customers (derive)", customers(rows), key -> customer.execute(key, region(key)));
            LoadProgress.load("orders (derive)", rows, key -> order.execute(key, customerOf(key, rows), amount(key)));
            session.commit();
            regionTotals = session.prepare(REGION_TOTALS);
        }

        @TearDown(Level.Trial)
        public void close() {
            session.close();
            database.close();
        }
    }

    @State(Scope.Thread)
    public static class DerbyOrders {
        @Param("100000")
        public int rows;

        DerbyMemoryDatabase database;
        private java.sql.PreparedStatement regionTotals;

        @Setup(Level.Trial)
        public void open() throws Exception {
            database = DerbyMemoryDatabase.create("join-group-bench");
            database.execute(CREATE_CUSTOMERS);
            database.execute(CREATE_ORDERS);
            database.connection().setAutoCommit(false);
            try (java.sql.PreparedStatement customer = database.connection().prepareStatement(INSERT_CUSTOMER);
                 java.sql.PreparedStatement order = database.connection().prepareStatement(INSERT_ORDER)) {
                LoadProgress.load("customers (derby)", customers(rows), key -> {
                    customer.setLong(1, key);
                    customer.setString(2, region(key));
                    customer.executeUpdate();
                });
                LoadProgress.load("orders (derby)", rows, key -> {
                    order.setLong(1, key);
                    order.setLong(2, customerOf(key, rows));
                    order.setLong(3, amount(key));
                    order.executeUpdate();
                });
            }
            database.connection().commit();
            database.connection().setAutoCommit(true);
            // The floor should be Derby at its best: its optimizer plans from statistics.
            database.execute("call syscs_util.syscs_update_statistics('APP', 'CUSTOMERS', null)");
            database.execute("call syscs_util.syscs_update_statistics('APP', 'ORDERS', null)");
            regionTotals = database.connection().prepareStatement(REGION_TOTALS);
        }

        @TearDown(Level.Trial)
        public void close() throws SQLException {
            regionTotals.close();
            database.close();
        }
    }

    @Benchmark
    public Result deriveRegionTotals(DeriveOrders orders) {
        return orders.regionTotals.execute();
    }

    @Benchmark
    public List<List<Object>> derbyRegionTotals(DerbyOrders orders) throws SQLException {
        return DerbyMemoryDatabase.rows(orders.regionTotals, REGION_TOTALS_COLUMNS);
    }
}
