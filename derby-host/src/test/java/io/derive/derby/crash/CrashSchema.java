package io.derive.derby.crash;

import io.derive.engine.api.RehydrateReport;
import io.derive.engine.api.Session;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The tables and materialized views the crash workload runs on, and the rehydrate action each
 * view must get at every reopen (semantics §8).
 *
 * <p>The Derby tables are {@code items} (the main source), {@code details} (which references
 * {@code items}, for a 1:1 join) and {@code log} (one row per committed workload transaction, so
 * that the checker can tell whether the transaction in flight at a kill committed); {@link #INDEX}
 * indexes {@code items}, so that the checker can read it after a kill. The memory
 * table {@code volatile_items} loses its rows at every close or crash. The views cover the
 * maintenance arms (projection with a filter, group recompute, 1:1 join), views over views, and
 * both cross-host directions.
 */
final class CrashSchema {
    static final String DERBY = "derby";
    static final String MEMORY = "memory";

    /** The Derby tables whose rows the model tracks exactly. */
    static final List<String> DERBY_TABLES = List.of("items", "details", "log");

    /** The secondary index of {@code items}, on {@code grp}. */
    static final String INDEX = "items_by_grp";

    /** The memory table: its rows must be gone after every reopen. */
    static final String VOLATILE_TABLE = "volatile_items";

    private static final List<String> TABLES = List.of(
            "create table items (id integer primary key, grp integer not null, amount integer not null, txn integer not null)",
            "create table details (id integer primary key, item integer not null references items (id), note text not null,"
                    + " txn integer not null)",
            "create index " + INDEX + " on items (grp)",
            "create table log (txn integer primary key, changes integer not null)",
            "create table volatile_items (id integer primary key, grp integer not null, amount integer not null,"
                    + " txn integer not null) using memory");

    /**
     * One materialized view of the workload.
     *
     * @param sources the tables and views its body reads, which decide whether it may be adopted
     */
    record View(String name, String host, String body, List<String> sources) {
        String ddl() {
            return "create materialized view " + name + (host.equals(MEMORY) ? " using memory" : "") + " as " + body;
        }
    }

    /** In creation order: a view's sources come before it. */
    static final List<View> VIEWS = List.of(
            new View("big_items", DERBY, "select id, grp, amount, txn from items where amount >= 50", List.of("items")),
            new View("per_group", DERBY,
                    "select grp, count(*) as n, sum(amount) as total from items group by grp", List.of("items")),
            new View("busy_groups", DERBY, "select grp, n, total from per_group where n >= 3", List.of("per_group")),
            new View("big_per_group", DERBY,
                    "select grp, count(*) as n, max(amount) as top from big_items group by grp", List.of("big_items")),
            new View("item_details", DERBY,
                    "select d.id, d.note, i.grp, i.amount from details d join items i on d.item = i.id",
                    List.of("details", "items")),
            new View("items_in_memory", MEMORY,
                    "select id, grp, amount from items where grp <> 0", List.of("items")),
            new View("over_memory_view", DERBY,
                    "select grp, count(*) as n, sum(amount) as total from items_in_memory group by grp",
                    List.of("items_in_memory")),
            new View("volatile_totals", DERBY,
                    "select grp, count(*) as n, sum(amount) as total from volatile_items group by grp",
                    List.of(VOLATILE_TABLE)),
            new View("volatile_big", MEMORY,
                    "select id, amount from volatile_items where amount > 50", List.of(VOLATILE_TABLE)));

    private static final Map<String, String> TABLE_HOSTS = Map.of(
            "items", DERBY, "details", DERBY, "log", DERBY, VOLATILE_TABLE, MEMORY);

    private CrashSchema() {
    }

    /** Creates every table and view, each in its own autocommit statement. */
    static void create(Session session) {
        TABLES.forEach(session::execute);
        VIEWS.forEach(v -> session.execute(v.ddl()));
    }

    /**
     * The action rehydrate must take for each view, by name: a Derby view whose sources are all
     * Derby tables or views adopted in the same open is {@code ADOPTED}; every other view (a
     * memory-hosted one, or one reading memory-hosted data directly or through another view) is
     * {@code REFILLED}. None of these views is ever stale: the workload changes no schema.
     */
    static Map<String, RehydrateReport.Action> expectedActions() {
        Map<String, RehydrateReport.Action> actions = new HashMap<>();
        for (View view : VIEWS) {
            boolean adoptable = view.host().equals(DERBY) && view.sources().stream().allMatch(source ->
                    TABLE_HOSTS.containsKey(source)
                            ? TABLE_HOSTS.get(source).equals(DERBY)
                            : actions.get(source) == RehydrateReport.Action.ADOPTED);
            actions.put(view.name(), adoptable ? RehydrateReport.Action.ADOPTED : RehydrateReport.Action.REFILLED);
        }
        return actions;
    }
}
