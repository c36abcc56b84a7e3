package io.derive.it.load;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/**
 * What one worker's rows must be: its customers, orders and shipments as of the writes it knows
 * committed, and the next write to ask for, always one that touches exactly one existing row
 * (or inserts a new key). Workers own disjoint keys — customers {@code w * 100 + c}, orders,
 * shipments and ledger rows from {@code (w + 1) * 10,000,000} — so their work never conflicts:
 * each group of the group-by view and each row of the join view belongs to one worker.
 */
public final class WorkerModel {
    /** Customers per worker, made by the schema's setup. */
    public static final int CUSTOMERS = 4;
    private static final long KEY_SPACE = 10_000_000L;
    private static final String[] STATUSES = {"open", "paid", "shipped"};
    private static final String[] STATES = {"packed", "transit", "delivered"};
    private static final String[] CARRIERS = {"ups", "dhl", "post"};

    private record Order(long customer, long amount, String status) {
    }

    private record Shipment(String carrier, String state) {
    }

    private final int worker;
    private final Random random;
    private final Map<Long, String> regions = new TreeMap<>();
    private final Map<Long, Order> orders = new TreeMap<>();
    private final Map<Long, Shipment> shipments = new TreeMap<>();
    private long written;

    public WorkerModel(int worker, long seed) {
        this.worker = worker;
        this.random = new Random(seed);
        for (int c = 0; c < CUSTOMERS; c++) {
            regions.put(worker * 100L + c, "r" + c % 3);
        }
    }

    public int worker() {
        return worker;
    }

    /** The next transaction to ask for; each call answers a new ledger number and new keys. */
    Write next() {
        written++;
        long tx = base() + written;
        int dice = random.nextInt(100);
        if (dice < 25 || (dice < 55 && orders.isEmpty())) {
            return new Write(tx, "insertOrder", Map.of("id", Long.toString(tx), "customer", Long.toString(anyOf(regions)),
                    "amount", Integer.toString(1 + random.nextInt(1000)), "status", pick(STATUSES)));
        }
        if (dice < 45) {
            return new Write(tx, "updateOrder", Map.of("id", Long.toString(anyOf(orders)),
                    "amount", Integer.toString(1 + random.nextInt(1000)), "status", pick(STATUSES)));
        }
        if (dice < 55) {
            return new Write(tx, "deleteOrder", Map.of("id", Long.toString(anyOf(orders))));
        }
        if (dice < 65) {
            return new Write(tx, "updateCustomer", Map.of("id", Long.toString(anyOf(regions)), "region", "r" + random.nextInt(5)));
        }
        if (dice < 80 || shipments.isEmpty()) {
            return new Write(tx, "insertShipment", Map.of("id", Long.toString(tx), "carrier", pick(CARRIERS), "state", pick(STATES)));
        }
        if (dice < 92) {
            return new Write(tx, "updateShipment", Map.of("id", Long.toString(anyOf(shipments)), "state", pick(STATES)));
        }
        return new Write(tx, "deleteShipment", Map.of("id", Long.toString(anyOf(shipments))));
    }

    /** Records {@code w} as committed. */
    void committed(Write w) {
        long id = w.id();
        switch (w.kind()) {
            case "insertOrder" -> orders.put(id, new Order(Long.parseLong(w.arg("customer")), Long.parseLong(w.arg("amount")),
                    w.arg("status")));
            case "updateOrder" -> orders.put(id, new Order(orders.get(id).customer(), Long.parseLong(w.arg("amount")),
                    w.arg("status")));
            case "deleteOrder" -> orders.remove(id);
            case "updateCustomer" -> regions.put(id, w.arg("region"));
            case "insertShipment" -> shipments.put(id, new Shipment(w.arg("carrier"), w.arg("state")));
            case "updateShipment" -> shipments.put(id, new Shipment(shipments.get(id).carrier(), w.arg("state")));
            case "deleteShipment" -> shipments.remove(id);
            default -> throw new IllegalArgumentException("unknown write " + w.kind());
        }
    }

    /** This worker's customers as {@code id|name|region}, by id. */
    public List<String> customerRows() {
        List<String> rows = new ArrayList<>();
        regions.forEach((id, region) -> rows.add(id + "|c" + worker + "_" + (id - worker * 100L) + "|" + region));
        return rows;
    }

    /** This worker's orders as {@code id|customer|amount|status}, by id. */
    public List<String> orderRows() {
        List<String> rows = new ArrayList<>();
        orders.forEach((id, o) -> rows.add(id + "|" + o.customer() + "|" + o.amount() + "|" + o.status()));
        return rows;
    }

    /** This worker's shipments as {@code id|carrier|state}, by id. */
    public List<String> shipmentRows() {
        List<String> rows = new ArrayList<>();
        shipments.forEach((id, s) -> rows.add(id + "|" + s.carrier() + "|" + s.state()));
        return rows;
    }

    private long base() {
        return (worker + 1) * KEY_SPACE;
    }

    private String pick(String[] values) {
        return values[random.nextInt(values.length)];
    }

    private <V> long anyOf(Map<Long, V> rows) {
        int skip = random.nextInt(rows.size());
        for (long key : rows.keySet()) {
            if (skip-- == 0) {
                return key;
            }
        }
        throw new IllegalStateException("no rows");
    }
}
