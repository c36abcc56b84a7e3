package io.derive.it.app;

import io.derive.client.DeriveConnection;
import io.derive.client.DeriveConnectionFactory;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import javax.naming.InitialContext;
import javax.naming.NamingException;
import javax.sql.DataSource;

import jakarta.annotation.Resource;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;

/**
 * The in-server half of the load and crash tests: one container-managed transaction per call,
 * writing a schema of three source tables — customers, orders, shipments — and three views over
 * them (a projection, a group-by and a 1:1 join), plus a ledger row naming the transaction, in
 * Derive and, when asked, in jdbc/second. Every name carries a prefix, so that one database holds
 * a schema per host.
 */
@Stateless
public class LoadBean {

    /** Where the JDBC floor of P7 lives; configured by the test that measures it, so looked up only then. */
    static final String FLOOR = "jdbc/floor";

    @Resource(lookup = "eis/derive")
    DeriveConnectionFactory derive;

    @Resource(lookup = "jdbc/second")
    DataSource second;

    /**
     * Creates the schema with prefix {@code p} on {@code host}, {@code customers} customers for
     * each of {@code workers} workers (ids {@code w * 100 + c}, region {@code r<c % 3>}), an
     * in_memory view too when {@code memoryView} (a group-by on the memory host over the
     * sources, refilled at every open), and the ledger table in jdbc/second.
     */
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public void setup(String p, String host, int workers, int customers, boolean memoryView) throws SQLException {
        String using = " using " + host;
        try (DeriveConnection c = derive.getConnection()) {
            c.execute("create table " + p + "customers (id integer primary key, name text not null, region text not null)" + using);
            c.execute("create table " + p + "orders (id integer primary key, customer integer not null, amount integer not null,"
                    + " status text not null)" + using);
            c.execute("create table " + p + "shipments (id integer primary key, carrier text not null, state text not null)" + using);
            c.execute("create table " + p + "ledger (tx integer primary key, worker integer not null)" + using);
            c.execute("create materialized view " + p + "in_transit" + using
                    + " as select id, carrier from " + p + "shipments where state = 'transit'");
            c.execute("create materialized view " + p + "per_customer" + using
                    + " as select customer, count(*) as n, sum(amount) as total from " + p + "orders group by customer");
            c.execute("create materialized view " + p + "order_regions" + using + " as select o.id, o.amount, o.status, c.region"
                    + " from " + p + "orders o left join " + p + "customers c on c.id = o.customer");
            if (memoryView) {
                c.execute("create materialized view " + p + "in_memory using memory"
                        + " as select status, count(*) as n, sum(amount) as total from " + p + "orders group by status");
            }
            for (int w = 0; w < workers; w++) {
                for (int k = 0; k < customers; k++) {
                    c.execute("insert into " + p + "customers values (?, ?, ?)", w * 100L + k, "c" + w + "_" + k, "r" + k % 3);
                }
            }
        }
        try (Connection c = second.getConnection(); Statement s = c.createStatement()) {
            s.executeUpdate("create table " + p + "ledger (tx bigint primary key)");
        }
    }

    /**
     * One transaction of worker {@code worker}: the write {@code kind} with its {@code args}, the
     * ledger row {@code tx} in Derive and, when {@code alsoSecond}, in jdbc/second. A write that
     * does not touch exactly one row fails the transaction: the client's model and the database
     * disagree.
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRED)
    public void transact(String p, long tx, int worker, String kind, Map<String, String> args, boolean alsoSecond)
            throws SQLException {
        try (DeriveConnection c = derive.getConnection()) {
            long touched = switch (kind) {
                case "insertOrder" -> c.execute("insert into " + p + "orders values (?, ?, ?, ?)", number(args, "id"),
                        number(args, "customer"), number(args, "amount"), args.get("status"));
                case "updateOrder" -> c.execute("update " + p + "orders set amount = ?, status = ? where id = ?",
                        number(args, "amount"), args.get("status"), number(args, "id"));
                case "deleteOrder" -> c.execute("delete from " + p + "orders where id = ?", number(args, "id"));
                case "updateCustomer" -> c.execute("update " + p + "customers set region = ? where id = ?",
                        args.get("region"), number(args, "id"));
                case "insertShipment" -> c.execute("insert into " + p + "shipments values (?, ?, ?)", number(args, "id"),
                        args.get("carrier"), args.get("state"));
                case "updateShipment" -> c.execute("update " + p + "shipments set state = ? where id = ?",
                        args.get("state"), number(args, "id"));
                case "deleteShipment" -> c.execute("delete from " + p + "shipments where id = ?", number(args, "id"));
                default -> throw new IllegalArgumentException("unknown write " + kind);
            };
            if (touched != 1) {
                throw new IllegalStateException(kind + " " + args + " touched " + touched + " rows, not 1");
            }
            c.execute("insert into " + p + "ledger values (?, ?)", tx, (long) worker);
        }
        if (alsoSecond) {
            try (Connection c = second.getConnection();
                 PreparedStatement s = c.prepareStatement("insert into " + p + "ledger values (?)")) {
                s.setLong(1, tx);
                s.executeUpdate();
            }
        }
    }

    /** Whether transaction {@code tx} is in Derive's ledger and in jdbc/second's: {@code {derive, second}}, each 0 or 1. */
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public long[] ledgered(String p, long tx) throws SQLException {
        long inDerive;
        try (DeriveConnection c = derive.getConnection()) {
            inDerive = count(c, "select count(*) from " + p + "ledger where tx = ?", tx);
        }
        try (Connection c = second.getConnection();
             PreparedStatement s = c.prepareStatement("select count(*) from " + p + "ledger where tx = ?")) {
            s.setLong(1, tx);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return new long[] {inDerive, rs.getLong(1)};
            }
        }
    }

    /** Every transaction in jdbc/second's ledger, in order. */
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public List<Long> secondLedger(String p) throws SQLException {
        List<Long> txs = new ArrayList<>();
        try (Connection c = second.getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("select tx from " + p + "ledger order by tx")) {
            while (rs.next()) {
                txs.add(rs.getLong(1));
            }
        }
        return txs;
    }

    /**
     * P7's two sides: in Derive a source table with a projection view; in {@link #FLOOR} the same
     * table and a copy that an after-insert trigger maintains, one row per source row.
     */
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public void setupInsertPair() throws SQLException, NamingException {
        try (DeriveConnection c = derive.getConnection()) {
            c.execute("create table p7_src (k integer primary key, v text not null)");
            c.execute("create materialized view p7_copy as select k, v from p7_src");
        }
        try (Connection c = floor().getConnection(); Statement s = c.createStatement()) {
            s.executeUpdate("create table p7_src (k bigint primary key, v varchar(40) not null)");
            s.executeUpdate("create table p7_copy (k bigint primary key, v varchar(40) not null)");
            s.executeUpdate("create trigger p7_copy_row after insert on p7_src referencing new as n"
                    + " for each row insert into p7_copy values (n.k, n.v)");
        }
    }

    /** One source row through the adapter; the projection view gets its row in the same transaction. */
    @TransactionAttribute(TransactionAttributeType.REQUIRED)
    public void insertThroughDerive(long k) {
        try (DeriveConnection c = derive.getConnection()) {
            c.execute("insert into p7_src values (?, ?)", k, "v" + k);
        }
    }

    /** One source row through JDBC; the trigger copies it in the same transaction. */
    @TransactionAttribute(TransactionAttributeType.REQUIRED)
    public void insertThroughJdbc(long k) throws SQLException, NamingException {
        try (Connection c = floor().getConnection(); PreparedStatement s = c.prepareStatement("insert into p7_src values (?, ?)")) {
            s.setLong(1, k);
            s.setString(2, "v" + k);
            s.executeUpdate();
        }
    }

    /** How many rows each side's source and maintained table hold: {@code {derive src, derive copy, jdbc src, jdbc copy}}. */
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public long[] insertPairCounts() throws SQLException, NamingException {
        long[] counts = new long[4];
        try (DeriveConnection c = derive.getConnection()) {
            counts[0] = count(c, "select count(*) from p7_src");
            counts[1] = count(c, "select count(*) from p7_copy");
        }
        try (Connection c = floor().getConnection(); Statement s = c.createStatement()) {
            counts[2] = count(s, "p7_src");
            counts[3] = count(s, "p7_copy");
        }
        return counts;
    }

    private static long count(DeriveConnection c, String query, Object... params) {
        return ((Number) c.query(query, params).get(0).get(0)).longValue();
    }

    private static long count(Statement s, String table) throws SQLException {
        try (ResultSet rs = s.executeQuery("select count(*) from " + table)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static DataSource floor() throws NamingException {
        return InitialContext.doLookup(FLOOR);
    }

    private static long number(Map<String, String> args, String name) {
        String value = args.get(name);
        if (value == null) {
            throw new IllegalArgumentException("missing argument " + name + " in " + args);
        }
        return Long.parseLong(value);
    }
}
