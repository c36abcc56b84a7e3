package io.derive.derby.crash;

import io.derive.derby.crash.WorkloadState.Detail;
import io.derive.derby.crash.WorkloadState.Item;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;

/**
 * Plans one random workload transaction from the state it starts in: single-row and multi-row
 * inserts, updates and deletes on the Derby sources and on the memory source, now and then a
 * savepoint that is rolled back (its writes must vanish) or released (they must stay), a
 * statement that fails on a constraint (the transaction must go on and commit without it), a
 * read that must see the transaction's own writes, and last the transaction's {@code log} row.
 *
 * <p>Deterministic: the same seed, transaction id and state give the same plan. Row ids are
 * {@code txn * 1000 + n}, so a transaction that is re-run after a kill uses the ids it used
 * before and no two transactions collide.
 */
final class TransactionPlanner {
    /** Above this many items, deletes become more likely than inserts, so the tables stay small. */
    private static final int CROWDED = 120;
    private static final int GROUPS = 5;

    /** A table of {@link Item} rows: the Derby source {@code items} or the memory source. */
    private record Target(String table, Function<WorkloadState, TreeMap<Long, Item>> rows) {
    }

    private static final Target ITEMS = new Target("items", s -> s.items);
    private static final Target VOLATILE = new Target(CrashSchema.VOLATILE_TABLE, s -> s.volatileItems);

    private enum Extra { UNDONE_SAVEPOINT, KEPT_SAVEPOINT, FAILING_STATEMENT, READ }

    private final Random random;
    private final long txn;
    private final WorkloadState scratch;
    private final List<Step> steps = new ArrayList<>();
    private long nextId;
    private long changes;

    private TransactionPlanner(long seed, long txn, WorkloadState scratch) {
        this.random = new Random(seed ^ (txn * 0x9E3779B97F4A7C15L));
        this.txn = txn;
        this.scratch = scratch;
        this.nextId = txn * 1000 + 1;
    }

    /** The plan of transaction {@code txn} of the workload of {@code seed}, starting from {@code state} (not changed). */
    static TransactionPlan plan(long seed, long txn, WorkloadState state) {
        return new TransactionPlanner(seed, txn, state.copy()).build();
    }

    private TransactionPlan build() {
        List<Object> actions = new ArrayList<>();
        int writes = 1 + random.nextInt(5);
        for (int i = 0; i < writes; i++) {
            actions.add("write");
        }
        addWithChance(actions, Extra.UNDONE_SAVEPOINT, 25);
        addWithChance(actions, Extra.KEPT_SAVEPOINT, 15);
        addWithChance(actions, Extra.FAILING_STATEMENT, 25);
        addWithChance(actions, Extra.READ, 30);
        Collections.shuffle(actions, random);
        for (Object action : actions) {
            if (action == Extra.UNDONE_SAVEPOINT) {
                undoneSavepoint("undone");
            } else if (action == Extra.KEPT_SAVEPOINT) {
                keptSavepoint();
            } else if (action == Extra.FAILING_STATEMENT) {
                steps.add(failingStatement());
            } else if (action == Extra.READ) {
                steps.add(read());
            } else {
                keep(randomWrites(scratch));
            }
        }
        long total = changes;
        steps.add(write("insert into log values (?, ?)", List.of(txn, total), s -> {
            s.log.put(txn, total);
            return 1;
        }, scratch));
        return new TransactionPlan(txn, steps);
    }

    private void addWithChance(List<Object> actions, Extra extra, int percent) {
        if (random.nextInt(100) < percent) {
            actions.add(extra);
        }
    }

    private void keep(List<Step.Write> writes) {
        for (Step.Write w : writes) {
            steps.add(w);
            changes += w.expectedCount();
        }
    }

    /** Writes planned on a copy of the state and then rolled back: the model never sees them. */
    private void undoneSavepoint(String name) {
        steps.add(Step.control("savepoint " + name));
        WorkloadState discarded = scratch.copy();
        int count = 1 + random.nextInt(3);
        for (int i = 0; i < count; i++) {
            randomWrites(discarded).forEach(w -> steps.add(w.asUndone()));
        }
        steps.add(Step.control("rollback to " + name));
        steps.add(Step.control("release " + name));
    }

    /** Writes inside a savepoint that is released, sometimes with a rolled-back savepoint nested inside. */
    private void keptSavepoint() {
        steps.add(Step.control("savepoint kept"));
        keep(randomWrites(scratch));
        if (random.nextBoolean()) {
            undoneSavepoint("nested");
        }
        keep(randomWrites(scratch));
        steps.add(Step.control("release kept"));
    }

    /** One random change, as one or two statements, applied to {@code state} as it is planned. */
    private List<Step.Write> randomWrites(WorkloadState state) {
        boolean crowded = state.items.size() > CROWDED;
        int roll = random.nextInt(100);
        if (roll < (crowded ? 8 : 20)) {
            return insertItems(ITEMS, 1, state);
        } else if (roll < (crowded ? 12 : 32)) {
            return insertItems(ITEMS, 2 + random.nextInt(3), state);
        } else if (roll < 45) {
            return updateItem(ITEMS, state);
        } else if (roll < 50) {
            return bumpGroup(ITEMS, state);
        } else if (roll < (crowded ? 68 : 58)) {
            return deleteItem(ITEMS, state);
        } else if (roll < (crowded ? 72 : 62)) {
            return deleteSmallItems(state);
        } else if (roll < 74) {
            return insertDetail(state);
        } else if (roll < 80) {
            return updateDetail(state);
        } else if (roll < 88) {
            return insertItems(VOLATILE, 1 + random.nextInt(3), state);
        } else if (roll < 93) {
            return updateItem(VOLATILE, state);
        } else if (roll < 96) {
            return bumpGroup(VOLATILE, state);
        } else {
            return deleteItem(VOLATILE, state);
        }
    }

    private List<Step.Write> insertItems(Target target, int count, WorkloadState state) {
        List<Item> rows = new ArrayList<>();
        List<Object> params = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Item item = new Item(nextId++, random.nextInt(GROUPS), random.nextInt(100), txn);
            rows.add(item);
            params.addAll(item.values());
        }
        String values = String.join(", ", Collections.nCopies(count, "(?, ?, ?, ?)"));
        return List.of(write("insert into " + target.table() + " values " + values, params, s -> {
            rows.forEach(r -> target.rows().apply(s).put(r.id(), r));
            return rows.size();
        }, state));
    }

    private List<Step.Write> updateItem(Target target, WorkloadState state) {
        Long id = randomKey(target.rows().apply(state));
        if (id == null) {
            return insertItems(target, 1, state);
        }
        Item old = target.rows().apply(state).get(id);
        Item updated = new Item(id, random.nextInt(GROUPS), (old.amount() + 1 + random.nextInt(98)) % 100, txn);
        return List.of(write("update " + target.table() + " set grp = ?, amount = ?, txn = ? where id = ?",
                List.of(updated.grp(), updated.amount(), txn, id), s -> {
                    target.rows().apply(s).put(id, updated);
                    return 1;
                }, state));
    }

    /** A multi-row update: every row of one group. */
    private List<Step.Write> bumpGroup(Target target, WorkloadState state) {
        long grp = random.nextInt(GROUPS);
        long delta = 1 + random.nextInt(20);
        return List.of(write("update " + target.table() + " set amount = (amount + ?) % 100, txn = ? where grp = ?",
                List.of(delta, txn, grp), s -> {
                    TreeMap<Long, Item> rows = target.rows().apply(s);
                    long n = 0;
                    for (Item item : List.copyOf(rows.values())) {
                        if (item.grp() == grp) {
                            rows.put(item.id(), new Item(item.id(), grp, (item.amount() + delta) % 100, txn));
                            n++;
                        }
                    }
                    return n;
                }, state));
    }

    private List<Step.Write> deleteItem(Target target, WorkloadState state) {
        Long id = randomKey(target.rows().apply(state));
        if (id == null) {
            return insertItems(target, 1, state);
        }
        List<Step.Write> writes = new ArrayList<>();
        if (target == ITEMS) {
            writes.add(write("delete from details where item = ?", List.of(id),
                    s -> removeDetails(s, d -> d.item() == id), state));
        }
        writes.add(write("delete from " + target.table() + " where id = ?", List.of(id),
                s -> target.rows().apply(s).remove(id) == null ? 0 : 1, state));
        return writes;
    }

    /** Multi-row deletes: the details of the small items of one group, then those items. */
    private List<Step.Write> deleteSmallItems(WorkloadState state) {
        long grp = random.nextInt(GROUPS);
        long below = random.nextInt(35);
        List<Step.Write> writes = new ArrayList<>();
        writes.add(write("delete from details where item in (select id from items where grp = ? and amount < ?)",
                List.of(grp, below), s -> removeDetails(s, d -> {
                    Item item = s.items.get(d.item());
                    return item != null && item.grp() == grp && item.amount() < below;
                }), state));
        writes.add(write("delete from items where grp = ? and amount < ?", List.of(grp, below), s -> {
            TreeMap<Long, Item> rows = s.items;
            long n = 0;
            for (Item item : List.copyOf(rows.values())) {
                if (item.grp() == grp && item.amount() < below) {
                    rows.remove(item.id());
                    n++;
                }
            }
            return n;
        }, state));
        return writes;
    }

    private List<Step.Write> insertDetail(WorkloadState state) {
        Long item = randomKey(state.items);
        if (item == null) {
            return insertItems(ITEMS, 1, state);
        }
        Detail detail = new Detail(nextId++, item, "t" + txn + "." + nextId, txn);
        return List.of(write("insert into details values (?, ?, ?, ?)", detail.values(), s -> {
            s.details.put(detail.id(), detail);
            return 1;
        }, state));
    }

    private List<Step.Write> updateDetail(WorkloadState state) {
        Long id = randomKey(state.details);
        if (id == null) {
            return insertDetail(state);
        }
        Detail old = state.details.get(id);
        Detail updated = new Detail(id, old.item(), "u" + txn + "." + nextId++, txn);
        return List.of(write("update details set note = ?, txn = ? where id = ?", List.of(updated.note(), txn, id), s -> {
            s.details.put(id, updated);
            return 1;
        }, state));
    }

    /** A statement that violates a constraint; which one depends on what the state allows. */
    private Step failingStatement() {
        int roll = random.nextInt(4);
        long id = nextId++;
        if (roll == 0) {
            Long existing = randomKey(scratch.items);
            long duplicate = existing == null ? id : existing;
            return new Step.FailingWrite("insert into items values (?, 1, 1, ?), (?, 2, 2, ?)",
                    List.of(id, txn, duplicate, txn), "UNIQUE constraint failed");
        } else if (roll == 1) {
            return new Step.FailingWrite("insert into details values (?, ?, 'orphan', ?)", List.of(id, -txn, txn),
                    "FOREIGN KEY constraint failed");
        } else if (roll == 2 && !scratch.details.isEmpty()) {
            long referenced = scratch.details.get(randomKey(scratch.details)).item();
            return new Step.FailingWrite("delete from items where id = ?", List.of(referenced),
                    "FOREIGN KEY constraint failed");
        } else {
            return new Step.FailingWrite("insert into volatile_items values (?, 0, 1, ?), (?, 0, 2, ?)",
                    List.of(id, txn, id, txn), "UNIQUE constraint failed");
        }
    }

    /** A read of a source or a view that must reflect the transaction's writes so far. */
    private Step read() {
        int roll = random.nextInt(5);
        if (roll == 0) {
            long sum = scratch.items.values().stream().mapToLong(Item::amount).sum();
            return new Step.Query("select count(*), sum(amount) from items",
                    List.of(Arrays.asList((long) scratch.items.size(), scratch.items.isEmpty() ? null : sum)));
        } else if (roll == 1) {
            return new Step.Query("select grp, n, total from per_group", groupTotals(scratch.items));
        } else if (roll == 2) {
            List<List<Object>> joined = new ArrayList<>();
            for (Detail d : scratch.details.values()) {
                Item item = scratch.items.get(d.item());
                joined.add(List.of(d.id(), d.note(), item.grp(), item.amount()));
            }
            return new Step.Query("select id, note, grp, amount from item_details", joined);
        } else if (roll == 3) {
            return new Step.Query("select grp, n, total from volatile_totals", groupTotals(scratch.volatileItems));
        } else {
            List<List<Object>> rows = new ArrayList<>();
            scratch.items.values().stream().filter(i -> i.grp() != 0)
                    .forEach(i -> rows.add(List.of(i.id(), i.grp(), i.amount())));
            return new Step.Query("select id, grp, amount from items_in_memory", rows);
        }
    }

    private static List<List<Object>> groupTotals(TreeMap<Long, Item> rows) {
        Map<Long, long[]> groups = new HashMap<>();
        for (Item item : rows.values()) {
            long[] g = groups.computeIfAbsent(item.grp(), k -> new long[2]);
            g[0]++;
            g[1] += item.amount();
        }
        List<List<Object>> totals = new ArrayList<>();
        groups.forEach((grp, g) -> totals.add(List.of(grp, g[0], g[1])));
        return totals;
    }

    private static long removeDetails(WorkloadState s, Predicate<Detail> which) {
        long n = 0;
        for (Detail d : List.copyOf(s.details.values())) {
            if (which.test(d)) {
                s.details.remove(d.id());
                n++;
            }
        }
        return n;
    }

    private Long randomKey(TreeMap<Long, ?> rows) {
        if (rows.isEmpty()) {
            return null;
        }
        return new ArrayList<>(rows.keySet()).get(random.nextInt(rows.size()));
    }

    /** A write whose expected count is what its effect does to {@code state}, applied now. */
    private static Step.Write write(String sql, List<Object> params, ToLongFunction<WorkloadState> effect, WorkloadState state) {
        return new Step.Write(sql, params, effect.applyAsLong(state), effect, false);
    }
}
