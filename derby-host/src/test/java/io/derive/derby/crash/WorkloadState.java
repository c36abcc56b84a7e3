package io.derive.derby.crash;

import io.derive.engine.api.Row;
import io.derive.engine.api.Session;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The model of the workload database: what its tables must hold after the transactions it has
 * been told committed. The child process loads it from the database when it starts and plans each
 * transaction against it; the parent keeps its own copy, advances it by the transactions the child
 * acknowledged, and compares it with the reopened database. Keyed maps in key order, so that
 * planning from equal states picks the same rows.
 */
final class WorkloadState {
    /** A row of {@code items} or {@code volatile_items}. */
    record Item(long id, long grp, long amount, long txn) {
        List<Object> values() {
            return List.of(id, grp, amount, txn);
        }
    }

    /** A row of {@code details}. */
    record Detail(long id, long item, String note, long txn) {
        List<Object> values() {
            return List.of(id, item, note, txn);
        }
    }

    final TreeMap<Long, Item> items;
    final TreeMap<Long, Detail> details;
    final TreeMap<Long, Long> log;
    final TreeMap<Long, Item> volatileItems;

    private WorkloadState(TreeMap<Long, Item> items, TreeMap<Long, Detail> details, TreeMap<Long, Long> log,
                          TreeMap<Long, Item> volatileItems) {
        this.items = items;
        this.details = details;
        this.log = log;
        this.volatileItems = volatileItems;
    }

    static WorkloadState empty() {
        return new WorkloadState(new TreeMap<>(), new TreeMap<>(), new TreeMap<>(), new TreeMap<>());
    }

    /** The committed contents of the workload tables, read through {@code session}. */
    static WorkloadState load(Session session) {
        WorkloadState state = empty();
        for (Row r : session.execute("select id, grp, amount, txn from items").rows()) {
            Item item = new Item(longAt(r, 0), longAt(r, 1), longAt(r, 2), longAt(r, 3));
            state.items.put(item.id(), item);
        }
        for (Row r : session.execute("select id, item, note, txn from details").rows()) {
            Detail detail = new Detail(longAt(r, 0), longAt(r, 1), (String) r.get(2), longAt(r, 3));
            state.details.put(detail.id(), detail);
        }
        for (Row r : session.execute("select txn, changes from log").rows()) {
            state.log.put(longAt(r, 0), longAt(r, 1));
        }
        for (Row r : session.execute("select id, grp, amount, txn from volatile_items").rows()) {
            Item item = new Item(longAt(r, 0), longAt(r, 1), longAt(r, 2), longAt(r, 3));
            state.volatileItems.put(item.id(), item);
        }
        return state;
    }

    /** An independent copy, for planning ahead without touching this one. */
    WorkloadState copy() {
        return new WorkloadState(new TreeMap<>(items), new TreeMap<>(details), new TreeMap<>(log),
                new TreeMap<>(volatileItems));
    }

    /** The id of the last transaction the log holds, 0 when none. */
    long lastTxn() {
        return log.isEmpty() ? 0 : log.lastKey();
    }

    /** What a reopen does to the model: the memory-hosted rows are gone. */
    void forgetVolatileRows() {
        volatileItems.clear();
    }

    /** The expected rows of a workload table, in the column order the checker selects them. */
    List<List<Object>> rowsOf(String table) {
        List<List<Object>> rows = new ArrayList<>();
        switch (table) {
            case "items" -> items.values().forEach(i -> rows.add(i.values()));
            case "details" -> details.values().forEach(d -> rows.add(d.values()));
            case "log" -> log.forEach((txn, changes) -> rows.add(List.of(txn, changes)));
            case CrashSchema.VOLATILE_TABLE -> volatileItems.values().forEach(i -> rows.add(i.values()));
            default -> throw new IllegalArgumentException("not a workload table: " + table);
        }
        return rows;
    }

    /** The select that reads a workload table in the column order of {@link #rowsOf}. */
    static String selectAll(String table) {
        Map<String, String> columns = Map.of(
                "items", "id, grp, amount, txn",
                "details", "id, item, note, txn",
                "log", "txn, changes",
                CrashSchema.VOLATILE_TABLE, "id, grp, amount, txn");
        return "select " + columns.get(table) + " from " + table;
    }

    private static long longAt(Row row, int index) {
        return ((Number) row.get(index)).longValue();
    }
}
